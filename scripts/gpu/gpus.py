"""The CUDA devices a --devices option names, for the GPU scripts that spread their work over a machine's GPUs."""
import os
import subprocess

ALLOWED = "all, or comma-separated CUDA device ordinals (0,1)"


def device_list(text):
    """"all" (CUDA_VISIBLE_DEVICES's where set, else nvidia-smi's GPUs; none found: []) or comma-separated ordinals;
    None where @p text is neither (the caller refuses it with ALLOWED)."""
    if text == "all" and os.environ.get("CUDA_VISIBLE_DEVICES"):
        return [d for d in os.environ["CUDA_VISIBLE_DEVICES"].split(",") if d]
    if text == "all":
        try:
            p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            return []
        return [str(i) for i, _ in enumerate(x for x in p.stdout.splitlines() if x.startswith("GPU "))]
    devs = [d for d in text.split(",") if d]
    return devs if devs and all(d.isdigit() for d in devs) else None
