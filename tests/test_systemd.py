import logging
import os
import threading

import pytest

from companion.systemd import (
    BadNotifySetting,
    Notifier,
    NotifyFailed,
    ServiceLink,
    SystemdError,
    Watchdog,
    watchdog_interval,
)
from tests.systemd_socket import notify_socket


def test_without_notify_socket_nothing_is_sent() -> None:
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert notifier.ready("serving") is False
    assert notifier.watchdog() is False


@pytest.mark.parametrize("abstract", [False, True], ids=["path", "abstract"])
def test_ready_reaches_the_socket(abstract: bool) -> None:
    with notify_socket(abstract=abstract) as sd:
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": sd.env_value})
        assert notifier.ready("serving on http://senet.local/") is True
        message = sd.receive()
    assert message == {
        "READY": "1",
        "MAINPID": str(os.getpid()),
        "STATUS": "serving on http://senet.local/",
    }


def test_stopping_and_status_messages() -> None:
    with notify_socket() as sd:
        notifier = Notifier(sd.env_value)
        notifier.status("2 players connected")
        notifier.stopping()
        assert sd.receive() == {"STATUS": "2 players connected"}
        assert sd.receive() == {"STOPPING": "1", "STATUS": "stopping"}


def test_a_multi_line_value_is_refused_before_sending() -> None:
    with notify_socket() as sd, pytest.raises(BadNotifySetting, match="one line"):
        Notifier(sd.env_value).status("two\nlines")


@pytest.mark.parametrize("value", ["relative/path", "@", "vsock:2:1234"])
def test_an_unusable_notify_socket_is_named(value: str) -> None:
    with pytest.raises(BadNotifySetting, match="NOTIFY_SOCKET"):
        Notifier.from_environment({"NOTIFY_SOCKET": value})


def test_a_vanished_socket_is_a_notify_failure() -> None:
    with notify_socket() as sd:
        path = sd.env_value
    notifier = Notifier(path)
    with pytest.raises(NotifyFailed, match="cannot reach systemd") as exc:
        notifier.watchdog()
    assert isinstance(exc.value, OSError)
    assert isinstance(exc.value, SystemdError)


def test_watchdog_interval_is_half_the_period() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({}) is None


def test_watchdog_meant_for_another_process_is_ignored() -> None:
    env = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}
    assert watchdog_interval(env, pid=4242) is None
    assert watchdog_interval(env, pid=1) == 15.0


@pytest.mark.parametrize(
    "env",
    [
        {"WATCHDOG_USEC": "thirty"},
        {"WATCHDOG_USEC": "0"},
        {"WATCHDOG_USEC": "1000", "WATCHDOG_PID": "me"},
    ],
)
def test_bad_watchdog_settings_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(BadNotifySetting, match="WATCHDOG"):
        watchdog_interval(env, pid=1)


def test_watchdog_tick_pings_only_while_healthy(caplog: pytest.LogCaptureFixture) -> None:
    healthy = [True]
    with notify_socket() as sd:
        dog = Watchdog(Notifier(sd.env_value), 15.0, healthy=lambda: healthy[0])
        assert dog.tick() is True
        assert sd.receive() == {"WATCHDOG": "1"}
        healthy[0] = False
        with caplog.at_level(logging.ERROR, logger="companion.systemd"):
            assert dog.tick() is False
            assert dog.tick() is False
        assert [r.message for r in caplog.records].count(
            "service unhealthy: watchdog pings stop, systemd will restart it"
        ) == 1
        healthy[0] = True
        assert dog.tick() is True
        assert sd.receive() == {"WATCHDOG": "1"}
        with pytest.raises(TimeoutError):
            sd.receive(timeout=0.05)


def test_a_raising_health_check_withholds_the_ping() -> None:
    def broken() -> bool:
        raise RuntimeError("loop died")

    with notify_socket() as sd:
        assert Watchdog(Notifier(sd.env_value), 1.0, healthy=broken).tick() is False
        with pytest.raises(TimeoutError):
            sd.receive(timeout=0.05)


def test_watchdog_thread_keeps_pinging_until_stopped() -> None:
    with notify_socket() as sd:
        dog = Watchdog(Notifier(sd.env_value), 0.01)
        dog.start()
        try:
            assert [sd.receive(), sd.receive(), sd.receive()] == [{"WATCHDOG": "1"}] * 3
        finally:
            dog.stop()
            dog.stop()
    assert not any(t.name == "systemd-watchdog" for t in threading.enumerate())


def test_service_link_lifecycle() -> None:
    with notify_socket() as sd:
        env = {"NOTIFY_SOCKET": sd.env_value, "WATCHDOG_USEC": "20000"}
        with ServiceLink.from_environment(environ=env) as link:
            assert sd.receive_until("WATCHDOG")[-1] == {"WATCHDOG": "1"}
            link.ready("serving")
            assert sd.receive_until("READY")[-1]["STATUS"] == "serving"
        assert sd.receive_until("STOPPING")[-1] == {"STOPPING": "1", "STATUS": "stopping"}


def test_service_link_outside_systemd_is_silent() -> None:
    with ServiceLink.from_environment(environ={"WATCHDOG_USEC": "20000"}) as link:
        assert link.watchdog is None
        link.ready("serving")


def test_service_link_survives_a_lost_manager(caplog: pytest.LogCaptureFixture) -> None:
    with notify_socket() as sd:
        path = sd.env_value
    with (
        caplog.at_level(logging.WARNING, logger="companion.systemd"),
        ServiceLink.from_environment(environ={"NOTIFY_SOCKET": path}) as link,
    ):
        link.ready()
    assert "could not notify systemd" in caplog.text


def test_service_link_with_bad_settings_runs_without_systemd(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="companion.systemd"):
        link = ServiceLink.from_environment(environ={"NOTIFY_SOCKET": "nowhere"})
    assert not link.notifier.enabled
    assert "not talking to systemd" in caplog.text


def test_watchdog_refuses_a_zero_interval() -> None:
    with pytest.raises(ValueError, match="positive"):
        Watchdog(Notifier(None), 0)


def test_service_link_without_a_with_block() -> None:
    with notify_socket() as sd:
        env = {"NOTIFY_SOCKET": sd.env_value, "WATCHDOG_USEC": "20000"}
        link = ServiceLink.from_environment(healthy=lambda: True, environ=env)
        link.start()
        link.ready("serving")
        assert sd.receive_until("READY")[-1]["STATUS"] == "serving"
        link.close()
        link.close()
        assert sd.receive_until("STOPPING")[-1] == {"STOPPING": "1", "STATUS": "stopping"}
    assert link.watchdog is not None
    assert not any(t.name == "systemd-watchdog" for t in threading.enumerate())
