from django.contrib.auth import views as auth_views
from django.urls import path

from . import account_views, manage, views
from .account_views import needs_email
from .secure_context import https_on_your_network


def email_reset(view, name: str, **options):
    """One page of Django's email reset under Covenant's templates (registration/email_reset_*), 404 without
    email."""
    return needs_email(view.as_view(template_name=f"registration/email_reset_{name}.html", **options))


urlpatterns = [
    path("", views.home, name="home"),
    path("https/", https_on_your_network, name="https_on_your_network"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", account_views.LogIn.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/reset/<str:token>/", account_views.reset_password, name="reset_password"),
    path(
        "accounts/password-reset/",
        email_reset(
            auth_views.PasswordResetView,
            "form",
            email_template_name="registration/email_reset_email.txt",
            subject_template_name="registration/email_reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        email_reset(auth_views.PasswordResetDoneView, "sent"),
        name="password_reset_done",
    ),
    path(
        "accounts/password-reset/<uidb64>/<token>/",
        email_reset(auth_views.PasswordResetConfirmView, "confirm"),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password-reset/done/",
        email_reset(auth_views.PasswordResetCompleteView, "complete"),
        name="password_reset_complete",
    ),
    path("sagas/", views.saga_list, name="saga_list"),
    path("sagas/new/", views.saga_create, name="saga_create"),
    path("sagas/<id:saga_id>/", views.saga_detail, name="saga_detail"),
    path("sagas/<id:saga_id>/npc-rolls/", views.saga_npc_rolls, name="saga_npc_rolls"),
    path("sagas/<id:saga_id>/invite/", views.invite_regenerate, name="invite_regenerate"),
    path("sagas/<id:saga_id>/characters/new/", views.character_create, name="character_create"),
    path("sagas/<id:saga_id>/npcs/new/", views.npc_create, name="npc_create"),
    path("characters/<id:character_id>/", views.character_detail, name="character_detail"),
    path("characters/<id:character_id>/edit/", views.character_edit, name="character_edit"),
    path("characters/<id:character_id>/stamp/", views.npc_stamp, name="npc_stamp"),
    path("characters/<id:character_id>/played-by/", views.character_hand_over, name="character_hand_over"),
    path("sagas/<id:saga_id>/take/", views.saga_take, name="saga_take"),
    path("sagas/<id:saga_id>/troupe/<slug:change>/", views.saga_troupe, name="saga_troupe"),
    path("join/<invite:token>/", views.join, name="join"),
    path(
        "sagas/<id:saga_id>/members/<id:user_id>/password-link/", account_views.reset_link, name="reset_link"
    ),
    path("sagas/<id:saga_id>/manage/", manage.saga_manage, name="saga_manage"),
    path("sagas/<id:saga_id>/rename/", manage.saga_rename, name="saga_rename"),
    path("sagas/<id:saga_id>/delete/", manage.saga_delete, name="saga_delete"),
    path("sagas/<id:saga_id>/restore/", manage.saga_restore, name="saga_restore"),
    path("characters/<id:character_id>/manage/", manage.character_manage, name="character_manage"),
    path("characters/<id:character_id>/rename/", manage.character_rename, name="character_rename"),
    path("characters/<id:character_id>/delete/", manage.character_delete, name="character_delete"),
]
