#!/usr/bin/env python3
"""The API-break check (CI runs it from .ci/run): compares the public API of every library product with the last
release recorded in API/releases, through `swift package diagnose-api-breaking-changes`, and fails on a break that
CHANGELOG.md's "Unreleased" section does not announce.

A break is announced by quoting, in backticks, the line this script prints for it (`Module: message`) in the
Unreleased entry that gives its migration step; CHANGELOG.md's header says how. `--print-breaks` prints every break
in that form, announced or not.

The release's API is read from API/baselines/COMMIT/MODULE.json (swift-api-digester's dumps, committed), so the
check builds only the current tree, with the flags Scripts/test.sh uses (after it, nothing is rebuilt). When they
are missing (a release just recorded) they are made from the release's commit, a debug build of it that takes
minutes; commit them then.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINES = os.path.join(ROOT, "API", "baselines")
# The flags Scripts/test.sh builds with: the same build is reused.
BUILD_FLAGS = ["-Xswiftc", "-warnings-as-errors"]


def fail(message):
    print(f"api-check: {message}", file=sys.stderr)
    sys.exit(2)


def run(arguments, check=True):
    result = subprocess.run(arguments, cwd=ROOT, capture_output=True, text=True)
    if check and result.returncode != 0:
        fail(f"{' '.join(arguments)} failed:\n{result.stdout}{result.stderr}")
    return result


def last_release():
    with open(os.path.join(ROOT, "API", "releases")) as file:
        lines = [line.split() for line in file if line.strip() and not line.startswith("#")]
    if not lines or len(lines[-1]) != 2:
        fail("API/releases names no release (lines are: VERSION COMMIT)")
    return lines[-1]


def changelog_sections():
    """CHANGELOG.md's text, and its Unreleased section's."""
    with open(os.path.join(ROOT, "CHANGELOG.md")) as file:
        text = file.read()
    match = re.search(r"^## Unreleased.*?$(.*?)(?=^## )", text, re.M | re.S)
    if not match:
        fail('CHANGELOG.md has no "## Unreleased" section before the releases')
    return text, match.group(1)


def announced(section):
    """Every backticked span of the section, whitespace runs collapsed (a span may wrap over lines)."""
    return {" ".join(span.split()) for span in re.findall(r"`([^`]+)`", section)}


def library_products():
    manifest = json.loads(run(["swift", "package", "dump-package"]).stdout)
    return {p["name"]: p["targets"] for p in manifest["products"] if "library" in p["type"]}


def make_baselines(commit, products):
    print(f"api-check: no baselines for {commit}: building that commit to make them (minutes)")
    command = ["swift", "package", "diagnose-api-breaking-changes", commit, "--baseline-dir", BASELINES]
    run(command + ["--products"] + sorted(products), check=False)
    folder = os.path.join(BASELINES, commit)
    if not os.path.isdir(folder):
        fail(f"swift package diagnose-api-breaking-changes made no baselines in {folder}")
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        with open(path) as file:
            dump = json.load(file)
        dump["ABIRoot"].pop("tool_arguments", None)  # this machine's paths: not part of the API
        with open(path, "w") as file:
            json.dump(dump, file, indent=1)
            file.write("\n")
    print(f"api-check: made {folder}: commit it")


def diagnose(commit, products):
    """The breaks the tool reports, as "Module: message"."""
    command = ["swift", "package"] + BUILD_FLAGS + ["diagnose-api-breaking-changes", commit]
    result = run(command + ["--products"] + sorted(products) + ["--baseline-dir", BASELINES], check=False)
    output = result.stdout + result.stderr
    breaks, module, compared = set(), None, set()
    for line in output.splitlines():
        if found := re.match(r"(?:\d+ breaking changes?|No breaking changes) detected in (\S+?):?$", line.strip()):
            module = found.group(1)
            compared.add(module)
        elif "API breakage:" in line and module:
            breaks.add(f"{module}: {line.split('API breakage:', 1)[1].strip()}")
    missing = {target for targets in products.values() for target in targets} - compared
    if missing:
        fail(f"the comparison did not report on {', '.join(sorted(missing))}:\n{output[-4000:]}")
    return breaks


def main():
    version, commit = last_release()
    text, unreleased = changelog_sections()
    if not re.search(rf"^## {re.escape(version)} \(commit {commit}\)", text, re.M):
        fail(f'CHANGELOG.md has no heading "## {version} (commit {commit})": API/releases and it disagree')
    has_commit = lambda: run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], check=False).returncode == 0
    # A shallow clone (as some CI systems make) lacks the release: fetch the history once before giving up.
    if not has_commit() and run(["git", "rev-parse", "--is-shallow-repository"], check=False).stdout.strip() == "true":
        run(["git", "fetch", "--quiet", "--unshallow"], check=False)
    if not has_commit():
        fail(f"commit {commit} ({version}) is not in this clone: fetch the history (git fetch --unshallow)")
    products = library_products()
    folder = os.path.join(BASELINES, commit)
    if not os.path.isdir(folder):
        make_baselines(commit, products)
    modules = {name[: -len(".json")] for name in os.listdir(folder) if name.endswith(".json")}
    compared = {p: t for p, t in products.items() if all(target in modules for target in t)}
    new = sorted(set(products) - set(compared))
    current_targets = {target for targets in products.values() for target in targets}
    breaks = {f"{module}: module has been removed" for module in modules - current_targets}
    breaks |= diagnose(commit, compared)

    if "--print-breaks" in sys.argv:
        for line in sorted(breaks):
            print(f"`{line}`")
        return
    spans = announced(unreleased)
    unannounced = sorted(b for b in breaks if " ".join(b.split()) not in spans)
    stale = sorted(s for s in spans if re.match(r"Imago\w*: ", s) and s not in {" ".join(b.split()) for b in breaks})
    print(f"api-check: {len(breaks)} breaks since {version} ({commit[:7]}) in {len(compared)} products, "
          f"{len(breaks) - len(unannounced)} announced in CHANGELOG.md"
          + (f"; new since {version}, not compared: {', '.join(new)}" if new else ""))
    if stale:
        print("api-check: announced but no longer reported (drop them if the break is gone):")
        for span in stale:
            print(f"    `{span}`")
    if unannounced:
        print(f"api-check: {len(unannounced)} breaks are not announced. Quote each, as below, in the Unreleased "
              "entry of CHANGELOG.md that says how to migrate (or keep the old API as a deprecated shim):")
        for line in unannounced:
            print(f"    `{line}`")
        sys.exit(1)


if __name__ == "__main__":
    main()
