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
# Output: "worker-token: T" on standard output, after "orphans: N DIR"
# when job-output folders no job owns were set aside.  A command the server
# refuses ends the script with "error: WHAT (see LOG)" and status 1.
import datetime
import glob
import io
import os
import re
import sys

from django.conf import settings
from django.core.management import call_command
from lava_scheduler_app.models import TestJob


def set_aside_orphans():
    """Job-output folders that no job in the database owns are moved to
    MEDIA_ROOT/job-output-orphans/STAMP/, kept, not deleted.  The server
    files a job's output under job-output/YYYY/MM/DD/ID (or job-output/
    job-ID), so after the database is made anew (dropdb, a new machine
    from an old disk) job 17's log would be appended to the old job 17's.
    A folder is an orphan when no job has its ID, when that job was
    submitted on another day, or when the folder is older than the job.
    Returns the folder the orphans went to and how many."""
    root = os.path.join(settings.MEDIA_ROOT, "job-output")
    jobs = dict(TestJob.objects.values_list("id", "submit_time"))
    aside = os.path.join(settings.MEDIA_ROOT, "job-output-orphans",
                         datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    n = 0
    for path in glob.glob(os.path.join(root, "[0-9]*/[0-9]*/[0-9]*/[0-9]*")) + \
            glob.glob(os.path.join(root, "job-[0-9]*")):
        rel = os.path.relpath(path, root)
        parts = rel.split(os.sep)
        m = re.fullmatch(r"(?:job-)?([0-9]+)", parts[-1])
        if not m or not os.path.isdir(path):
            continue
        submitted = jobs.get(int(m.group(1)))
        orphan = submitted is None
        if not orphan and len(parts) == 4:
            orphan = submitted.strftime("%Y/%m/%d") != "/".join(parts[:3])
        if not orphan:
            orphan = os.path.getmtime(path) < submitted.timestamp() - 2
        if orphan:
            os.makedirs(os.path.dirname(os.path.join(aside, rel)), exist_ok=True)
            os.rename(path, os.path.join(aside, rel))
            n += 1
    return aside, n


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

    aside, n = set_aside_orphans()
    if n:
        print("orphans: %d %s" % (n, aside))

    for line in run("workers", "details", worker).splitlines():
        f = line.split()
        if f and f[0] in ("token", "token:"):
            print("worker-token: " + f[-1])
            return
    print("error: no token for worker %s (see %s)" % (worker, env["LAB_LOG"]))
    sys.exit(1)


lab_register()
