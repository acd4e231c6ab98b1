"""@jit(cache=True): the PTX of cuda kernels on disk, reused by later processes. No GPU needed:
eager signatures compile at decoration, and kaji._core.disk_cache_stats() counts what the
cache did."""

import hashlib
import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

import kaji

KERNEL_MODULE = '''
import json
import kaji

SCALE = {scale}


@kaji.jit(device=True)
def scaled(x):
    return x * {helper_body}


@kaji.jit("void(float32[:])", target="cuda", cache=True)
def kernel(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] = {kernel_body}


print(json.dumps(kaji._core.disk_cache_stats()))
'''

ORIGINAL = {"scale": "2.0", "helper_body": "SCALE", "kernel_body": "scaled(a[i])"}


def run_kernel_module(tmp_path, cache_dir, timeout=120, **changes):
    """Defines the kernel in a fresh process; the cache counts it printed."""
    script = tmp_path / "kernels.py"
    script.write_text(KERNEL_MODULE.format(**{**ORIGINAL, **changes}))
    package_dir = pathlib.Path(kaji.__file__).resolve().parents[1]
    env = dict(os.environ, KAJI_CACHE_DIR=str(cache_dir),
               PYTHONPATH=os.pathsep.join([str(package_dir), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout.strip().splitlines()[-1])
    stats["stderr"] = result.stderr
    return stats


def entries(cache_dir):
    return sorted(cache_dir.glob("*.kajicache"))


@pytest.fixture
def cache_dir(tmp_path):
    return tmp_path / "cache"


def test_a_fresh_process_hits_what_an_earlier_one_stored(tmp_path, cache_dir):
    first = run_kernel_module(tmp_path, cache_dir)
    assert (first["hits"], first["misses"], first["stores"]) == (0, 1, 1)
    assert len(entries(cache_dir)) == 1
    second = run_kernel_module(tmp_path, cache_dir)
    assert (second["hits"], second["misses"], second["stores"]) == (1, 0, 0)
    assert len(entries(cache_dir)) == 1


@pytest.mark.parametrize("change", [
    {"kernel_body": "scaled(a[i]) + 1"},
    {"scale": "3.0"},
    {"scale": "2"},
    {"helper_body": "SCALE * SCALE"},
], ids=["kernel source", "global constant value", "global constant type", "device function"])
def test_a_change_the_kernel_depends_on_misses(tmp_path, cache_dir, change):
    run_kernel_module(tmp_path, cache_dir)
    changed = run_kernel_module(tmp_path, cache_dir, **change)
    assert (changed["hits"], changed["misses"], changed["stores"]) == (0, 1, 1)
    assert len(entries(cache_dir)) == 2


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_a_damaged_entry_is_recompiled_and_rewritten(tmp_path, cache_dir, damage):
    run_kernel_module(tmp_path, cache_dir)
    (entry,) = entries(cache_dir)
    good = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(good[: len(good) // 2])
    else:
        entry.write_bytes(good[:-10] + bytes([good[-10] ^ 1]) + good[-9:])
    repaired = run_kernel_module(tmp_path, cache_dir)
    assert (repaired["hits"], repaired["rejected"], repaired["stores"]) == (0, 1, 1)
    assert entry.read_bytes() == good
    assert run_kernel_module(tmp_path, cache_dir)["hits"] == 1


def entry_with_payload(good, payload):
    """An entry with `good`'s header fields (magic, version, key digest) over `payload`, its
    length and checksum right."""
    return good[:44] + len(payload).to_bytes(8, "little") + hashlib.sha256(payload).digest() + payload


@pytest.mark.parametrize("damage", ["symlink to /dev/zero", "fifo", "huge declared size",
                                    "undecodable payload", "directory"])
def test_an_entry_that_is_not_a_sound_file_is_refused_fast(tmp_path, cache_dir, damage):
    run_kernel_module(tmp_path, cache_dir)
    (entry,) = entries(cache_dir)
    good = entry.read_bytes()
    entry.unlink()
    if damage == "symlink to /dev/zero":
        entry.symlink_to("/dev/zero")
    elif damage == "fifo":
        os.mkfifo(entry)
    elif damage == "huge declared size":
        entry.write_bytes(good[:44] + (2**62).to_bytes(8, "little") + good[52:])
    elif damage == "undecodable payload":
        entry.write_bytes(entry_with_payload(good, b"no entry names, no PTX"))
    else:
        entry.mkdir()
    start = time.monotonic()
    repaired = run_kernel_module(tmp_path, cache_dir, timeout=30)
    assert time.monotonic() - start < 30
    assert (repaired["hits"], repaired["misses"], repaired["rejected"]) == (0, 1, 1)
    assert (repaired["stores"], entry.read_bytes()) == (1, good)
    assert run_kernel_module(tmp_path, cache_dir)["hits"] == 1


def test_an_unwritable_cache_dir_still_compiles(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    stats = run_kernel_module(tmp_path, blocker / "cache")
    assert (stats["misses"], stats["stores"], stats["store_failures"]) == (1, 0, 1)
    assert "cannot write the kernel cache" in stats["stderr"]


def test_kernels_without_cache_and_cpu_kernels_write_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("KAJI_CACHE_DIR", str(tmp_path))
    assert kaji._core.default_cache_dir() == str(tmp_path)

    @kaji.jit("void(float32[:])", target="cuda")
    def uncached(a):
        a[0] = 1.0

    @kaji.jit("void(float32[:])", target="cpu", cache=True)
    def on_cpu(a):
        a[0] = 1.0

    assert list(tmp_path.iterdir()) == []


def test_cuda_jit_takes_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("KAJI_CACHE_DIR", str(tmp_path))
    before = kaji._core.disk_cache_stats()["stores"] + kaji._core.disk_cache_stats()["hits"]

    @kaji.cuda.jit("void(float32[:], float32)", target="cuda", cache=True)
    def fill(a, value):
        a[0] = value

    after = kaji._core.disk_cache_stats()["stores"] + kaji._core.disk_cache_stats()["hits"]
    assert after == before + 1
    assert len(entries(tmp_path)) == 1
