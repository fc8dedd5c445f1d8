#!/usr/bin/env python3
"""A scripted GSM voice modem for the telephony end-to-end tests (standard library only).

It speaks the part of 3GPP TS 27.007 that oFono's phonesim plugin (over TCP) and ModemManager's
generic plugin (over a pty) use for voice calls, and keeps a call list whose states follow the
+CLCC codes: 0 active, 1 held, 2 dialing, 3 alerting, 4 incoming, 5 waiting.

    --tcp            serve the AT channel on a free TCP port (oFono)
    --pty LINK       serve it on a new pty whose slave path LINK points to (ModemManager)

The control channel is a free TCP port; the tests play the network with it, one command a line,
one reply line each:
    ring NUMBER      a call comes in (waiting, with +CCWA, if a call is already active or held)
    answer           the far end picks up our dialing or alerting call
    hangup [ID]      the far end hangs up call ID, or every call
    list             the call list as JSON

Once listening, one JSON line goes to stdout: {"ctl": PORT, "at": PORT} or {"ctl": PORT, "pty": PATH}.
"""
import argparse, json, os, pty, socket, sys, threading, time, tty

ACTIVE, HELD, DIALING, ALERTING, INCOMING, WAITING = range(6)

state_lock = threading.RLock()
calls = {}        # index -> {"mo": bool, "stat": int, "number": str}
writers = []      # one write function per open AT channel


def log(*words):
    print("[fake_modem]", *words, file=sys.stderr, flush=True)


def urc(line):
    for write in list(writers):
        try:
            write(("\r\n%s\r\n" % line).encode())
        except OSError:
            pass


def toa(number):
    return 145 if number.startswith("+") else 129


def free_index():
    index = 1
    while index in calls:
        index += 1
    return index


def with_stat(*stats):
    return [i for i, c in sorted(calls.items()) if c["stat"] in stats]


def clcc():
    return ['+CLCC: %d,%d,%d,0,0,"%s",%d' % (i, 0 if c["mo"] else 1, c["stat"], c["number"], toa(c["number"]))
            for i, c in sorted(calls.items())]


def chld(arg):
    """Call-related supplementary services (27.007 7.13). Returns True when understood."""
    if arg == "0":  # release held calls, or reject the waiting one
        doomed = with_stat(WAITING) or with_stat(HELD)
        for i in doomed:
            del calls[i]
    elif arg == "1":  # release active calls, accept the waiting (else held) one
        for i in with_stat(ACTIVE):
            del calls[i]
        for i in (with_stat(WAITING) or with_stat(HELD)):
            calls[i]["stat"] = ACTIVE
    elif arg.startswith("1") and arg[1:].isdigit():
        calls.pop(int(arg[1:]), None)
    elif arg == "2":  # hold active calls, accept the waiting (else held) one
        wake = with_stat(WAITING) or with_stat(HELD)
        for i in with_stat(ACTIVE):
            calls[i]["stat"] = HELD
        for i in wake:
            calls[i]["stat"] = ACTIVE
    elif arg.startswith("2") and arg[1:].isdigit():  # hold all active calls but one
        keep = int(arg[1:])
        for i in with_stat(ACTIVE, HELD):
            calls[i]["stat"] = ACTIVE if i == keep else HELD
    elif arg == "3":
        for i in with_stat(HELD):
            calls[i]["stat"] = ACTIVE
    else:
        return False
    return True


FIXED = {
    "AT+CPIN?": ["+CPIN: READY"], "AT+CGMI": ["FakeModemCo"], "AT+GMI": ["FakeModemCo"],
    "AT+CGMM": ["FakeModem 2"], "AT+GMM": ["FakeModem 2"], "AT+CGMR": ["2.0"], "AT+GMR": ["2.0"],
    "AT+CGSN": ["356938035643809"], "AT+GSN": ["356938035643809"], "AT+CIMI": ["001010123456789"],
    "AT+GCAP": ["+GCAP: +CGSM"], "ATI": ["FakeModemCo FakeModem 2"], "AT+CFUN?": ["+CFUN: 1"],
    "AT+CREG?": ["+CREG: 0,1"], "AT+CGREG?": ["+CGREG: 0,1"], "AT+CEREG?": ["+CEREG: 0,1"],
    "AT+COPS?": ['+COPS: 0,2,"00101",0'], "AT+CSQ": ["+CSQ: 20,99"], "AT+CLIP?": ["+CLIP: 1,1"],
    "AT+CSCS=?": ['+CSCS: ("IRA","GSM","UCS2")'], "AT+CSCS?": ['+CSCS: "GSM"'], "AT+CBC": ["+CBC: 0,80"],
    "AT+CHLD=?": ["+CHLD: (0,1,1x,2,2x,3)"], "AT+SIMSTATE?": ["+SIMSTATE: 1"],
    # The ICCID (EF 2FE2): answered so that ModemManager does not retry it for seconds.
    "AT+CRSM=176,12258,0,0,10": ['+CRSM: 144,0,"98101430121181157002"'],
}


def answer_at(line):
    """Returns (information lines, final result) for one command line."""
    command = line.upper()
    with state_lock:
        if command in FIXED:
            return FIXED[command], "OK"
        if command == "AT+CLCC":
            return clcc(), "OK"
        if command.startswith("ATD") and command.endswith(";"):
            number = line[3:-1].rstrip("IiGg")
            index = free_index()
            calls[index] = {"mo": True, "stat": DIALING, "number": number}
            threading.Thread(target=alert_later, args=(index,), daemon=True).start()
            return [], "OK"
        if command == "ATA":
            ringing = with_stat(INCOMING)
            if not ringing:
                return [], "NO CARRIER"
            calls[ringing[0]]["stat"] = ACTIVE
            return [], "OK"
        if command in ("ATH", "ATH0", "AT+CHUP"):
            doomed = with_stat(ACTIVE, DIALING, ALERTING, INCOMING) or list(calls)
            for i in doomed:
                del calls[i]
            return [], "OK"
        if command.startswith("AT+CHLD="):
            return [], "OK" if chld(command[8:]) else "ERROR"
        if command.startswith(("AT+CRSM", "AT+CPBS", "AT+CPBR", "AT+CSIM")):
            return [], "ERROR"
        return [], "OK"


def alert_later(index):
    time.sleep(0.3)
    with state_lock:
        if index in calls and calls[index]["stat"] == DIALING:
            calls[index]["stat"] = ALERTING


def control(line):
    words = line.split()
    if not words:
        return "error empty command"
    with state_lock:
        if words[0] == "ring" and len(words) == 2:
            number = words[1]
            busy = bool(with_stat(ACTIVE, HELD))
            calls[free_index()] = {"mo": False, "stat": WAITING if busy else INCOMING, "number": number}
            if busy:
                urc('+CCWA: "%s",%d,1' % (number, toa(number)))
            else:
                urc("RING")
                urc('+CLIP: "%s",%d' % (number, toa(number)))
            return "ok"
        if words[0] == "answer" and len(words) == 1:
            dialed = with_stat(DIALING, ALERTING)
            if not dialed:
                return "error no outgoing call"
            calls[dialed[0]]["stat"] = ACTIVE
            return "ok"
        if words[0] == "hangup" and len(words) <= 2:
            if len(words) == 2:
                if not words[1].isdigit() or int(words[1]) not in calls:
                    return "error no call " + words[1]
                del calls[int(words[1])]
            else:
                calls.clear()
            urc("NO CARRIER")
            return "ok"
        if words[0] == "list" and len(words) == 1:
            return json.dumps({str(i): c for i, c in sorted(calls.items())}, sort_keys=True)
    return "error unknown command " + line


def serve_at(read, write, name):
    writers.append(write)
    pending = b""
    try:
        while True:
            data = read()
            if not data:
                return
            pending += data
            while True:
                ends = [i for i in (pending.find(b"\r"), pending.find(b"\n")) if i >= 0]
                if not ends:
                    break
                cut = min(ends)
                line, pending = pending[:cut].decode(errors="replace").strip(), pending[cut + 1:]
                if line:
                    info, final = answer_at(line)
                    log(name, "<-", line, "->", info, final)
                    write(b"".join(("\r\n%s\r\n" % l).encode() for l in info + [final]))
    except OSError:
        return
    finally:
        writers.remove(write)
        log(name, "closed")


def serve_control(server):
    while True:
        connection, _ = server.accept()
        stream = connection.makefile("rw")
        for line in stream:
            reply = control(line.strip())
            log("ctl", line.strip(), "->", reply)
            stream.write(reply + "\n")
            stream.flush()
        connection.close()


def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    return server, server.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tcp", action="store_true")
    parser.add_argument("--pty")
    options = parser.parse_args()
    if options.tcp == bool(options.pty):
        parser.error("give exactly one of --tcp and --pty")
    ctl_server, ctl_port = listener()
    threading.Thread(target=serve_control, args=(ctl_server,), daemon=True).start()
    if options.pty:
        master, slave = pty.openpty()
        tty.setraw(slave)
        path = os.ttyname(slave)
        if os.path.lexists(options.pty):
            os.unlink(options.pty)
        os.symlink(path, options.pty)
        print(json.dumps({"ctl": ctl_port, "pty": path}), flush=True)
        while True:  # ModemManager closes and reopens the port while probing, or restarts
            serve_at(lambda: os.read(master, 4096), lambda b: os.write(master, b), "pty")
            time.sleep(0.05)  # with no reader on the other side, read fails at once
    at_server, at_port = listener()
    print(json.dumps({"ctl": ctl_port, "at": at_port}), flush=True)
    while True:
        connection, _ = at_server.accept()
        threading.Thread(target=serve_at, args=(lambda c=connection: c.recv(4096), connection.sendall, "tcp"),
                         daemon=True).start()


if __name__ == "__main__":
    main()
