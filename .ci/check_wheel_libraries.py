#!/usr/bin/env python3
"""Checks a repaired wheel: every ELF file in it (the extension, the tool,
the libraries auditwheel bundled) needs only libraries that the manylinux
policy allows or that the wheel itself carries, and the dynamic loader finds
each of those in the wheel or the system without any LD_LIBRARY_PATH.

    python check_wheel_libraries.py WHEEL POLICY   (e.g. manylinux_2_36_x86_64)

Run with the auditwheel it was repaired with installed: the policy's list of
allowed libraries comes from that auditwheel."""

import importlib.resources
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile


def allowed_libraries(policy: str) -> set:
    name = re.sub(r"_(x86_64|aarch64|i686|ppc64le|s390x|armv7l)$", "", policy)
    policies = json.loads(importlib.resources.files("auditwheel.policy")
                          .joinpath("manylinux-policy.json").read_text())
    for entry in policies:
        if entry["name"] == name or name in entry.get("aliases", []):
            return set(entry["lib_whitelist"])
    sys.exit(f"check_wheel_libraries: auditwheel has no policy {name}")


def is_elf(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def needed(path: str) -> list:
    out = subprocess.run(["readelf", "-d", path], check=True, capture_output=True,
                         text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def main() -> None:
    wheel, policy = sys.argv[1], sys.argv[2]
    allowed = allowed_libraries(policy)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(tmp)
        elves = []
        for dirpath, _, files in os.walk(tmp):
            for name in files:
                path = os.path.join(dirpath, name)
                if is_elf(path):
                    elves.append(path)
        bundled = {os.path.basename(p) for p in elves}
        roles = {"extension": False, "tool": False}
        env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
        for path in sorted(elves):
            rel = os.path.relpath(path, tmp)
            if re.search(r"bloomtable/_bloomtable\..*\.so$", rel):
                roles["extension"] = True
            if rel == "bloomtable/_bin/bloomtable":
                roles["tool"] = True
            libs = needed(path)
            for lib in libs:
                # The dynamic loader is glibc's, as every policy assumes.
                if lib.startswith(("ld-linux", "ld64.so")):
                    continue
                if lib not in allowed and lib not in bundled:
                    problems.append(f"{rel} needs {lib}: neither allowed by "
                                    f"{policy} nor in the wheel")
            # Where the loader finds them: in the wheel, or (allowed ones) the system.
            ldd = subprocess.run(["ldd", path], capture_output=True, text=True,
                                 env=env).stdout
            for line in ldd.splitlines():
                m = re.match(r"\s*(\S+) => (.*?) \(0x", line)
                if m is None:
                    if "not found" in line:
                        problems.append(f"{rel}: {line.strip()}")
                    continue
                lib, where = m.group(1), m.group(2)
                if lib not in libs:
                    continue  # a dependency of a dependency, checked on its own
                inside = os.path.realpath(where).startswith(os.path.realpath(tmp))
                if not inside and lib not in allowed:
                    problems.append(f"{rel}: {lib} resolves to {where}, outside the wheel")
            print(f"{rel}: needs {', '.join(libs)}")
        for role, found in roles.items():
            if not found:
                problems.append(f"the wheel holds no {role}")
    if problems:
        sys.exit("check_wheel_libraries:\n  " + "\n  ".join(problems))
    print(f"every ELF file needs only libraries {policy} allows or the wheel carries")


if __name__ == "__main__":
    main()
