"""A local Redis Cluster of private ``redis-server`` processes, for the
integration suite and the benchmarks: masters in cluster mode on free loopback
ports, joined by ``redis-cli --cluster create``. Nothing listens beyond 127.0.0.1."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from storage.server import RedisServer

BUS_OFFSET = 10_000  # a cluster node also listens on its port + 10000 (the cluster bus)


class LocalCluster:
    def __init__(self, folder: Path, masters: int = 3) -> None:
        self.folder = folder
        self.masters = masters
        self.nodes: list[RedisServer] = []

    @staticmethod
    def installed() -> bool:
        return RedisServer.installed() and shutil.which("redis-cli") is not None

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.nodes[0].port}"

    def start(self) -> str:
        """Start the nodes, create the cluster, wait (at most 20 s) until every
        slot is served; returns the cluster's URL (see :func:`storage.connect.connect`)."""
        try:
            for number in range(self.masters):
                port = _free_cluster_port({n.port for n in self.nodes})
                node = RedisServer(
                    self.folder / f"node{number}",
                    tcp=True,
                    appendonly=False,
                    port=port,
                    extra=[
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes.conf",
                        "--cluster-node-timeout",
                        "5000",
                    ],
                )
                node.launch()
                self.nodes.append(node)
            for node in self.nodes:
                node.wait()
            addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
            subprocess.run(
                ["redis-cli", "--cluster", "create", *addresses, "--cluster-replicas", "0", "--cluster-yes"],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=30,
            )
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self.url

    def _wait_ready(self) -> None:
        for _ in range(200):
            if all(_cluster_ok(node.port) for node in self.nodes):
                return
            time.sleep(0.1)
        raise RuntimeError("the local Redis Cluster did not come up within 20 seconds")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def _cluster_ok(port: int) -> bool:
    done = subprocess.run(
        ["redis-cli", "-p", str(port), "cluster", "info"], capture_output=True, text=True, timeout=5
    )
    return "cluster_state:ok" in done.stdout


def _free_cluster_port(taken: set[int]) -> int:
    """A free loopback port whose cluster bus port is free too."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port + BUS_OFFSET > 65_535 or port in taken or port + BUS_OFFSET in taken:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + BUS_OFFSET))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port pair for a cluster node")
