"""Simulations on a Dask cluster (a local cluster started by the test on loopback) give exactly
the results of a local run with the same seed."""
import pytest

from dominion.simulate import simulate

distributed = pytest.importorskip("distributed")   # the [cluster] extra; CI installs it


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as local:
        yield local


def strip(summary):
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second")}


def test_a_cluster_run_gives_the_local_results(cluster):
    bots = ["smithy-big-money", "big-money"]
    local = simulate(bots, 24, seed=5, workers=1)
    with distributed.Client(cluster.scheduler_address) as client:
        remote = simulate(bots, 24, seed=5, executor=client)
    assert strip(remote) == strip(local)


def test_the_cli_runs_on_a_cluster_by_address(cluster, capsys, tmp_path):
    from dominion_client.cli import main
    records = tmp_path / "r.jsonl"
    assert main(["simulate", "--games", "6", "--bots", "big-money,random", "--seed", "2",
                 "--cluster", cluster.scheduler_address, "--records", str(records)]) == 0
    assert "6 games" in capsys.readouterr().out
    assert len(records.read_text().splitlines()) == 6


def test_a_cluster_that_does_not_answer_is_a_clear_error(capsys):
    from dominion_client.cli import main
    assert main(["simulate", "--games", "2", "--bots", "big-money,random",
                 "--cluster", "tcp://127.0.0.1:9"]) == 2
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in capsys.readouterr().err
