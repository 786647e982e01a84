# tools/lava/lab_register.py - the lab's user, token, device types, worker
# and devices, registered through lava-server's own management commands in
# ONE Django process (tools/lava/lab up runs it as
# `lava-server manage shell -c "$(cat lab_register.py)"`).  Each command
# is the one a lab admin types (`lava-server manage devices add ...`); one
# process instead of one per command saves Django's start-up, about 3 s a
# command.
#
# Input (environment): LAB_USER, LAB_TOKEN (the API token to make when
# the user has none of that secret; empty: none), LAB_DEVICE_TYPES
# (space-separated), LAB_WORKER, LAB_DEVICES (the folder of NAME.jinja2),
# LAB_LOG (the file each command's output is appended to).
# Output: "worker-token: T" on standard output.  A command the server
# refuses ends the script with "error: WHAT (see LOG)" and status 1.
import io
import os
import re
import sys

from django.core.management import call_command


def lab_register():
    env = os.environ
    log = open(env["LAB_LOG"], "a")

    def run(*args, quiet=False):
        out = io.StringIO()
        try:
            call_command(*args, stdout=out, stderr=out)
        except (Exception, SystemExit) as e:  # a CommandError, or argparse's exit
            log.write(out.getvalue() + "%s: %s\n" % (" ".join(args), e))
            if quiet:
                return None
            print("error: the server refused `%s`: %s (see %s)" % (" ".join(args), e, env["LAB_LOG"]))
            sys.exit(1)
        log.write(out.getvalue())
        return out.getvalue()

    def words(text):
        return set(re.findall(r"[\w.-]+", text or ""))

    user = env["LAB_USER"]
    if user not in words(run("users", "list")):
        run("users", "add", "--superuser", "--staff", user)
    if env.get("LAB_TOKEN"):
        run("tokens", "add", "--user", user, "--description", "baremark lab", "--secret", env["LAB_TOKEN"])

    known = words(run("device-types", "list"))
    for t in env["LAB_DEVICE_TYPES"].split():
        if t not in known:
            run("device-types", "add", t)

    worker = env["LAB_WORKER"]
    if worker not in words(run("workers", "list")):
        run("workers", "add", worker)

    folder = env["LAB_DEVICES"]
    wanted = sorted(f[:-len(".jinja2")] for f in os.listdir(folder) if f.endswith(".jinja2"))
    known = words(run("devices", "list", "-a"))
    for name in wanted:
        if name not in known:
            run("devices", "add", "--device-type", "baremark-qemu", "--worker", worker, name)
        run("devices", "update", "--health", "GOOD", name, quiet=True)
    # A device of the type that is no longer in the folder is retired, so
    # the scheduler gives it no job.
    for line in run("devices", "list").splitlines():
        f = line.split()
        if len(f) >= 3 and f[0] == "*" and f[2] == "(baremark-qemu)" and f[1] not in wanted:
            run("devices", "update", "--health", "RETIRED", f[1], quiet=True)

    for line in run("workers", "details", worker).splitlines():
        f = line.split()
        if f and f[0] in ("token", "token:"):
            print("worker-token: " + f[-1])
            return
    print("error: no token for worker %s (see %s)" % (worker, env["LAB_LOG"]))
    sys.exit(1)


lab_register()
