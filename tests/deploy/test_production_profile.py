"""The production profile passes Django's deployment checklist; a bad environment is refused in one line."""

from .profile import manage, profile_env


def test_check_deploy_with_the_documented_profile_gives_no_warnings(tmp_path):
    env = profile_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNINGS" not in result.stderr


def test_production_without_a_secret_key_is_refused_in_one_line():
    result = manage("check", env=profile_env(SECRET_KEY=None))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "Covenant will not start: SECRET_KEY must be set to a long random value when DEBUG is false "
        "(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
    ]


def test_production_with_the_development_key_is_refused():
    result = manage("check", env=profile_env(SECRET_KEY="covenant-dev-only-not-secret"))
    assert result.returncode == 1
    assert result.stderr.startswith("Covenant will not start: SECRET_KEY must be set")
    assert "Traceback" not in result.stderr


def test_a_value_the_settings_do_not_understand_is_one_line_not_a_traceback():
    result = manage("check", env=profile_env(LOGIN_FAILURE_LIMIT="five"))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "Covenant will not start: LOGIN_FAILURE_LIMIT must be a whole number from 1 to 1000, not 'five'"
    )


def test_the_embedded_default_still_starts_with_nothing_set():
    env = {name: value for name, value in profile_env().items() if name in ("PATH", "HOME")}
    result = manage("check", env=env)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
