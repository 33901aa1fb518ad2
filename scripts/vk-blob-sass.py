#!/usr/bin/env python3
"""Looks for NVIDIA machine code in Vulkan driver blobs (issue 19): VkPipelineCache data written by
repro_shared_atomics --cache-dir, or the driver's own shader disk cache (__GL_SHADER_DISK_CACHE_PATH).

NVIDIA documents neither format. If a blob holds an ELF image (a cubin, as CUDA's are) this cuts it out
at the ELF header's own size and runs cuobjdump -sass (else nvdisasm) on it, so the Vulkan driver's
instructions can be read beside CUDA's. Where no ELF is found the report says so with the blob's size
and first bytes: that is the answer for this driver, not a failure of the run.

  vk-blob-sass.py OUTPUT.txt FILE_OR_DIR...     exit 0 always (a report, not a test)
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ATOMIC = re.compile(r"\b(ATOMS|ATOMG|ATOM|RED|REDG|REDUX|CAS|ATOMS\.CAST)[A-Z0-9.]*")


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for n in sorted(names):
                    yield os.path.join(root, n)
        elif os.path.isfile(p):
            yield p


def elf_images(blob):
    """(offset, bytes) of every 64-bit little-endian ELF image in blob, cut at e_shoff + e_shnum * e_shentsize."""
    start = 0
    while True:
        i = blob.find(b"\x7fELF\x02\x01", start)
        if i < 0:
            return
        start = i + 4
        if i + 64 > len(blob):
            continue
        e_phoff, e_shoff = struct.unpack_from("<QQ", blob, i + 0x20)
        e_phentsize, e_phnum, e_shentsize, e_shnum = struct.unpack_from("<HHHH", blob, i + 0x36)
        end = max(e_shoff + e_shnum * e_shentsize, e_phoff + e_phnum * e_phentsize)
        if 64 <= end <= len(blob) - i:
            yield i, blob[i:i + end]


def disassemble(image):
    tools = [t for t in ("cuobjdump", "nvdisasm") if shutil.which(t)]
    if not tools:
        return "no cuobjdump or nvdisasm on this machine"
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(image)
        path = f.name
    try:
        for t in tools:
            cmd = [t, "-sass", path] if t == "cuobjdump" else [t, "-c", path]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            if r.returncode == 0 and r.stdout.strip():
                return r.stdout
        return f"{' and '.join(tools)} could not read it: {r.stderr.strip()[:300]}"
    finally:
        os.unlink(path)


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    lines = []
    found = 0
    for p in files(paths):
        blob = open(p, "rb").read()
        images = list(elf_images(blob))
        lines.append(f"== {p}: {len(blob)} bytes, {len(images)} ELF image(s)")
        if not images:
            lines.append("   first bytes: " + blob[:48].hex(" "))
        for off, image in images:
            found += 1
            text = disassemble(image)
            atomics = [ln.strip() for ln in text.splitlines() if ATOMIC.search(ln)]
            lines.append(f"-- ELF at offset {off}, {len(image)} bytes; atomic instructions: {len(atomics)}")
            lines.extend("   " + a for a in atomics[:40])
            lines.append(text)
    head = (f"{found} ELF image(s) found" if found else
            "no ELF image in these blobs (the first bytes of each are listed)")
    with open(out, "w") as f:
        f.write(head + "\n" + "\n".join(lines) + "\n")
    print(head)


if __name__ == "__main__":
    main()
