"""The Redis channel layer and its connection options (issues 9 and 11): channels-redis's pub/sub layer
(combat.redis_layer), with redis-py's timeouts set here, whatever redis-py's defaults are."""

import json
import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
# Made in a fresh process, since config.settings reads REDIS_URL once: the redis-py options that the
# layer's connection pool gets from channels-redis's own create_pool.
POOL_OPTIONS = """
import json
from channels_redis.utils import create_pool, decode_hosts
from config import settings
layer = settings.CHANNEL_LAYERS["default"]
options = {"backend": layer["BACKEND"]}
if "CONFIG" in layer:
    [host] = decode_hosts(layer["CONFIG"]["hosts"])
    kwargs = create_pool(host).connection_kwargs
    options.update({key: kwargs.get(key) for key in (
        "host", "port", "db", "socket_timeout", "socket_connect_timeout", "socket_keepalive",
        "health_check_interval")})
    options["retries"] = kwargs["retry"].get_retries()
    options["retry_on_error"] = [error.__name__ for error in kwargs["retry_on_error"]]
    options["prefix"] = layer["CONFIG"]["prefix"]
print(json.dumps(options))
"""


def pool_options(redis_url: str | None) -> dict:
    """The channel layer's backend and connection options, with REDIS_URL set or not."""
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    if redis_url:
        env["REDIS_URL"] = redis_url
    out = subprocess.run(
        [sys.executable, "-c", POOL_OPTIONS], cwd=BASE_DIR, env=env, check=True, capture_output=True
    )
    return json.loads(out.stdout)


def test_the_redis_layer_is_the_pub_sub_layer_with_its_timeouts_set():
    options = pool_options("redis://redis.example:6390/2")
    assert options["backend"] == "combat.redis_layer.PubSubLayer"
    assert (options["host"], options["port"], options["db"]) == ("redis.example", 6390, 2)
    assert options["socket_timeout"] == 15
    assert options["socket_connect_timeout"] == 2
    assert options["socket_keepalive"] is True
    assert options["health_check_interval"] == 30


def test_after_a_redis_restart_a_dead_pooled_connection_is_replaced_once():
    options = pool_options("redis://127.0.0.1:6379/0")
    assert options["retries"] == 1
    assert options["retry_on_error"] == ["ConnectionError"]


def test_the_groups_prefix_names_the_database_which_redis_pub_sub_ignores():
    assert pool_options("redis://redis.example:6390/2")["prefix"] == "covenant-db2."
    assert pool_options("redis://redis.example:6390")["prefix"] == "covenant-db0."


def test_without_redis_url_the_layer_is_in_memory():
    assert pool_options(None) == {"backend": "combat.layers.InMemoryLayer"}
