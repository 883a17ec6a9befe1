"""The scale benchmark's pieces (bench/scale_bench.py; the benchmark itself is run by hand, see
docs/scaling.md): its CPU placement caps each server in a cgroup of its own and removes the
groups after, degrades to pinning alone (saying that this cannot show scaling) where cgroups
cannot be used, and its figures are computed from the runs as the docs say."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def scale():
    path = list(sys.path)
    try:   # it imports its neighbours (service_bench, storage_bench) from bench/
        spec = importlib.util.spec_from_file_location("scale_bench", BENCH / "scale_bench.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = path
    return module


@pytest.fixture
def sleeper():
    proc = subprocess.Popen(["sleep", "60"])
    yield proc
    proc.kill()
    proc.wait()


def a_cpu() -> set:
    return {max(os.sched_getaffinity(0))}


def test_without_root_a_server_is_only_pinned_and_the_benchmark_says_it_cannot_show_scaling(
        scale, sleeper, tmp_path, monkeypatch):
    monkeypatch.setattr(scale.os, "geteuid", lambda: 1000)
    placement = scale.Placement(a_cpu(), a_cpu(), 0.15, root=tmp_path)
    assert placement.reason == "not root"
    assert "cannot show scaling" in placement.describe()
    placement.server(sleeper.pid)
    assert os.sched_getaffinity(sleeper.pid) == a_cpu()
    assert placement.groups == {} and list(tmp_path.iterdir()) == []
    placement.close()


def test_without_cgroup_v1_cpu_controller_the_reason_names_it(scale, tmp_path, monkeypatch):
    monkeypatch.setattr(scale.os, "geteuid", lambda: 0)
    assert "no cgroup v1 cpu controller" in scale.cgroups_unusable(tmp_path)
    assert scale.Placement(a_cpu(), a_cpu(), 0, root=tmp_path).reason == \
        "--server-cpu 0"


def test_as_root_each_server_is_capped_in_a_group_of_its_own_removed_after(scale, sleeper,
                                                                          request):
    reason = scale.cgroups_unusable()
    if reason:
        pytest.skip(f"cgroups cannot be used here: {reason}")
    placement = scale.Placement(a_cpu(), a_cpu(), 0.25)
    group = scale.CGROUP_CPU / f"dominion-scale-{os.getpid()}-{sleeper.pid}"
    def leave_no_group():   # were close() to fail: the group is removed once emptied
        sleeper.kill()
        sleeper.wait()
        if group.exists():
            group.rmdir()
    request.addfinalizer(leave_no_group)
    try:
        placement.server(sleeper.pid)
        assert placement.groups == {sleeper.pid: group}
        assert (group / "cpu.cfs_period_us").read_text().strip() == str(scale.PERIOD_US)
        assert (group / "cpu.cfs_quota_us").read_text().strip() == str(scale.PERIOD_US // 4)
        assert (group / "cgroup.procs").read_text().split() == [str(sleeper.pid)]
        assert placement.throttling([sleeper.pid])[1] == 0   # asleep: never at the cap
    finally:
        placement.close()   # the server still in it is moved out first
    assert not group.exists()
    assert f":cpu:/{group.name}" not in Path(f"/proc/{sleeper.pid}/cgroup").read_text()


def test_the_figures_are_medians_per_decision_and_per_second_from_the_runs(scale):
    # answers, seconds, server CPU s, clients CPU s, and the watch's delta: NOTIFYs, answers
    # announced, PostgreSQL CPU s, client CPUs busy/all ticks, server CPUs busy/all ticks,
    # cgroup periods/throttled
    one = [(1000, 1.0, 0.15, 0.1, [50, 1000, 0.05, 60, 100, 100, 100, 50, 45]),
           (1000, 2.0, 0.16, 0.1, [40, 1000, 0.06, 50, 100, 100, 100, 100, 80])]
    two = [(1000, 0.5, 0.17, 0.1, [100, 1000, 0.06, 70, 100, 100, 100, 50, 40])]
    figures = [scale.summary(1, 0.15, one), scale.summary(2, 0.15, two)]
    f1, f2 = figures
    assert f1["rate"] == 750 and f1["rates"] == [1000, 500]
    assert f1["server_us"] == pytest.approx(155) and f1["database_us"] == pytest.approx(55)
    assert f1["share_used"] == pytest.approx((0.15 / 1.0 / 0.15 + 0.16 / 2.0 / 0.15) / 2)
    assert f1["commits"] == 35 and f1["per_commit"] == 22.5 and f1["heard_others"] == 0
    assert f1["throttled"] == pytest.approx(0.85) and f1["client_busy"] == pytest.approx(0.55)
    assert f2["commits"] == 200 and f2["heard"] == 200 and f2["heard_others"] == 100
    assert f2["answers_others"] == 1000
    lines = scale.report(figures, 0.15)
    assert "x2.67 of 1's" in lines[1]
    assert "+15.0 us per server added" in lines[-1]
    assert not any("busy with" in line for line in lines)   # 55% and 70%: under BUSY


@pytest.mark.parametrize("args", [("--servers", "0,2"), ("--servers", "4,4,8"),
                                  ("--client-cpus", "0", "--server-cpus", "0")])
def test_bad_counts_or_overlapping_cpus_are_refused_before_anything_starts(scale, args, capsys):
    with pytest.raises(SystemExit) as stop:
        scale.main(list(args))
    assert stop.value.code == 2
    assert "--" in capsys.readouterr().err
