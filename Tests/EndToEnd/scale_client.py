#!/usr/bin/python3
"""An independent org.fitd.Fit1 client for the text-scale end-to-end tests (python-dbus,
which no one here wrote), plus a fake XDG settings portal.

Usage (the session bus is the test's private bus):
  scale_client.py props                          all org.fitd.Fit1 properties as JSON
  scale_client.py get NAME                       one property
  scale_client.py set VALUE                      Set TextScale; prints "ok" or the error name
  scale_client.py reset                          ResetTextScale()
  scale_client.py styles [CATEGORY]              GetTextStyles as JSON
  scale_client.py measure TEXT FONT              Measure as JSON {width, fonts, generation}
  scale_client.py wait NAME VALUE SECONDS        waits until property NAME == VALUE (exit 1 on timeout)
  scale_client.py listen FILE SECONDS            appends "<monotonic> <generation> <reasons>" per GenerationChanged
  scale_client.py flood PATH COUNT SECONDS       touches PATH COUNT times within about SECONDS
  scale_client.py portal FACTOR [FONT]           serves a fake org.freedesktop.portal.Settings;
                                                 SIGUSR1 changes text-scaling-factor to 1.25;
                                                 FAKE_PORTAL_OLD=1: no ReadOne (only the old Read)
"""
import json
import os
import signal
import sys
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.fitd.Fit1"
PATH = "/org/fitd/Fit1"


def fit():
    bus = dbus.SessionBus()
    return bus, bus.get_object(NAME, PATH)


def plain(value):
    if isinstance(value, (dbus.Double, float)):
        return float(value)
    if isinstance(value, (dbus.UInt64, dbus.UInt32, dbus.Int32, dbus.Int64, int)) and not isinstance(value, dbus.Boolean):
        return int(value)
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, str)):
        return str(value)
    if isinstance(value, (dbus.Array, list)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Struct, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def props():
    _, obj = fit()
    return plain(obj.GetAll(NAME, dbus_interface="org.freedesktop.DBus.Properties"))


def main(argv):
    command = argv[1]
    if command == "props":
        print(json.dumps(props(), sort_keys=True))
    elif command == "get":
        _, obj = fit()
        print(json.dumps(plain(obj.Get(NAME, argv[2], dbus_interface="org.freedesktop.DBus.Properties"))))
    elif command == "set":
        _, obj = fit()
        value = float(argv[2])
        try:
            obj.Set(NAME, "TextScale", dbus.Double(value, variant_level=1), dbus_interface="org.freedesktop.DBus.Properties")
            print("ok")
        except dbus.DBusException as error:
            print(error.get_dbus_name())
            print(error.get_dbus_message(), file=sys.stderr)
    elif command == "reset":
        _, obj = fit()
        obj.ResetTextScale(dbus_interface=NAME)
        print("ok")
    elif command == "styles":
        _, obj = fit()
        rows = obj.GetTextStyles(argv[2] if len(argv) > 2 else "", dbus_interface=NAME)
        print(json.dumps([{"style": r[0], "font": r[1], "point_size": float(r[2]), "line_height": float(r[3])} for r in rows]))
    elif command == "measure":
        _, obj = fit()
        m = obj.Measure(argv[2], argv[3], dbus.Dictionary({}, signature="sv"), dbus_interface=NAME)
        print(json.dumps({"width": float(m[0]), "height": float(m[1]), "fonts": [str(f) for f in m[6]], "generation": int(m[8])}))
    elif command == "wait":
        name, want, seconds = argv[2], argv[3], float(argv[4])
        deadline = time.monotonic() + seconds
        last = None
        while time.monotonic() < deadline:
            last = props().get(name)
            if isinstance(last, float) and _isnum(want):
                if abs(last - float(want)) < 1e-9:
                    return 0
            elif str(last) == want:
                return 0
            time.sleep(0.1)
        print(f"{name} is {last!r}, expected {want} after {seconds} s", file=sys.stderr)
        return 1
    elif command == "listen":
        listen(argv[2], float(argv[3]))
    elif command == "flood":
        path, count, seconds = argv[2], int(argv[3]), float(argv[4])
        start = time.monotonic()
        for i in range(count):
            os.utime(path)
            # Spread over the window rather than finishing in a few ms.
            ahead = start + seconds * (i + 1) / count - time.monotonic()
            if ahead > 0.001:
                time.sleep(ahead)
        print(f"{count} touches in {time.monotonic() - start:.2f} s")
    elif command == "contract":
        # Methods, properties and signals of the running daemon against protocol/org.fitd.Fit1.xml.
        import xml.etree.ElementTree as ET
        _, obj = fit()
        live = ET.fromstring(str(obj.Introspect(dbus_interface="org.freedesktop.DBus.Introspectable")))
        want = ET.parse(argv[2]).getroot()

        def members(root):
            iface = [i for i in root.findall("interface") if i.get("name") == NAME][0]
            out = set()
            for m in iface:
                if m.tag in ("method", "signal"):
                    out.add((m.tag, m.get("name"), tuple((a.get("type"), a.get("direction")) for a in m.findall("arg"))))
                elif m.tag == "property":
                    out.add((m.tag, m.get("name"), m.get("type"), m.get("access")))
            return out
        a, b = members(live), members(want)
        for extra in sorted(a - b, key=str):
            print("daemon only:", extra)
        for missing in sorted(b - a, key=str):
            print("XML only:", missing)
        return 0 if a == b else 1
    elif command == "portal":
        portal(float(argv[2]), argv[3] if len(argv) > 3 else None)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


def _isnum(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def listen(path, seconds):
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()

    def changed(generation, reasons):
        with open(path, "a") as out:
            out.write(f"{time.monotonic():.3f} {int(generation)} {','.join(str(r) for r in reasons)}\n")

    bus.add_signal_receiver(changed, signal_name="GenerationChanged", dbus_interface=NAME, path=PATH)
    # Tell the test the match is in place (AddMatch has returned by now).
    with open(path + ".ready", "w") as out:
        out.write("ready\n")
    loop = GLib.MainLoop()
    GLib.timeout_add(int(seconds * 1000), loop.quit)
    loop.run()


class FakePortal(dbus.service.Object):
    """org.freedesktop.portal.Settings as xdg-desktop-portal exposes it (version 2)."""

    IFACE = "org.freedesktop.portal.Settings"

    def __init__(self, bus, values):
        super().__init__(bus, "/org/freedesktop/portal/desktop")
        self.values = values

    def lookup(self, namespace, key):
        if namespace in self.values and key in self.values[namespace]:
            return self.values[namespace][key]
        raise dbus.DBusException("Requested setting not found", name="org.freedesktop.portal.Error.NotFound")

    @dbus.service.method(IFACE, in_signature="ss", out_signature="v")
    def ReadOne(self, namespace, key):
        if os.environ.get("FAKE_PORTAL_OLD"):
            # A portal from before Settings version 2 has no ReadOne.
            raise dbus.DBusException("No such method 'ReadOne'", name="org.freedesktop.DBus.Error.UnknownMethod")
        return self.lookup(namespace, key)

    @dbus.service.method(IFACE, in_signature="ss", out_signature="v")
    def Read(self, namespace, key):
        # The deprecated Read wraps the value in one more variant (why version 2 added ReadOne).
        value = self.lookup(namespace, key)
        return type(value)(value, variant_level=2)

    @dbus.service.method(IFACE, in_signature="as", out_signature="a{sa{sv}}")
    def ReadAll(self, namespaces):
        return dbus.Dictionary(
            {ns: dbus.Dictionary(keys, signature="sv") for ns, keys in self.values.items()
             if not namespaces or ns in namespaces},
            signature="sa{sv}")

    @dbus.service.signal(IFACE, signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass

    def change(self, namespace, key, value):
        self.values.setdefault(namespace, {})[key] = value
        self.SettingChanged(namespace, key, value)


def portal(factor, font):
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    values = {"org.gnome.desktop.interface": {"text-scaling-factor": dbus.Double(factor, variant_level=1)}}
    if font:
        values["org.gnome.desktop.interface"]["font-name"] = dbus.String(font, variant_level=1)
    values["org.example.other"] = {"key": dbus.String("x", variant_level=1)}
    fake = FakePortal(bus, values)
    name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)  # kept: dropping it releases the name

    def on_usr1():
        fake.change("org.gnome.desktop.interface", "text-scaling-factor", dbus.Double(1.25, variant_level=1))
        return True

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, on_usr1)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: loop.quit() or False)
    loop = GLib.MainLoop()
    print("portal ready", flush=True)
    loop.run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
