"""The production profile passes Django's deployment checklist; a bad environment is refused in one line.
`make run`'s profile (nothing set) is tests/deploy/test_run_settings.py's."""

from .profile import manage, profile_env


def test_check_deploy_with_the_documented_profile_gives_no_warnings(tmp_path):
    env = profile_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNINGS" not in result.stderr


def test_a_value_the_settings_do_not_understand_is_one_line_not_a_traceback():
    result = manage("check", env=profile_env(LOGIN_FAILURE_LIMIT="five"))
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "Covenant will not start: LOGIN_FAILURE_LIMIT must be a whole number from 1 to 1000, not 'five'"
    )
