"""The Redis channel layer's connection options (issue 9): an idle websocket's blocking read must not
time out, whatever redis-py's defaults are (channels_redis #422, redis-py #4091)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from channels_redis.core import RedisChannelLayer
from channels_redis.utils import create_pool, decode_hosts

BASE_DIR = Path(__file__).resolve().parents[1]


def layer_settings(redis_url: str | None) -> dict:
    """CHANNEL_LAYERS as config.settings makes it in a fresh process, with REDIS_URL set or not."""
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    if redis_url:
        env["REDIS_URL"] = redis_url
    code = "import json; from config import settings; print(json.dumps(settings.CHANNEL_LAYERS))"
    out = subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, check=True, capture_output=True)
    return json.loads(out.stdout)


def test_the_redis_layer_reads_longer_than_channels_redis_blocks():
    config = layer_settings("redis://redis.example:6390/2")["default"]
    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    [host] = decode_hosts(config["CONFIG"]["hosts"])
    pool = create_pool(host)
    kwargs = pool.connection_kwargs
    assert (kwargs["host"], kwargs["port"], kwargs["db"]) == ("redis.example", 6390, 2)
    assert kwargs["socket_timeout"] > RedisChannelLayer.brpop_timeout
    assert kwargs["socket_timeout"] == 15
    assert kwargs["socket_connect_timeout"] == 2
    assert kwargs["socket_keepalive"] is True
    assert kwargs["health_check_interval"] == 30


def test_without_redis_url_the_layer_is_in_memory():
    assert layer_settings(None) == {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
