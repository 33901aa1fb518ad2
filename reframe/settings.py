# ReFrame settings for atomlab's checks (checks.py; docs/guide/fleet.md).
#
#   reframe -C reframe/settings.py -c reframe/checks.py -r
#
# runs the checks on this machine ('local': its best OpenCL or CUDA device, PoCL on a machine without a GPU).
# 'cluster' is an example of a Slurm cluster with one partition per GPU model: copy it, set the hostnames of its
# login nodes, the partition names and the sbatch options of your site, and run
#
#   reframe -C reframe/settings.py -c reframe/checks.py --system cluster:h100 --distribute=idle \
#           -S fleet_dir=$PWD/fleet -r
#
# --distribute gives every check one job per node of the partition (ReFrame pins it with --nodelist), and
# fleet_dir collects each node's result files in fleet_dir/<node>/ for `atomlab fleet fleet_dir/*`.
#
# The partition extras atomlab's checks read:
#   atomlab_profile             'quick' (PoCL: a few seconds per check) or 'gpu' (the reference settings)
#   atomlab_references          a device model of references.json: its figures become the checks' references
#   atomlab_reference_overrides {"fetch_add/u32/global/unused": {"peak_gops": 650.0}, ...}: this system's own
#   atomlab_tolerance           [lower, upper] fractions, e.g. [-0.05, null]: replaces references.json's
#   atomlab_device              an id from `atomlab devices` (default: the best device of the node)

import os

# The local system's stage, output and performance logs: under the build tree, whatever folder ReFrame runs in.
LOCAL_PREFIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'reframe')

site_configuration = {
    'systems': [
        {
            'name': 'cluster',
            'descr': 'Example Slurm cluster with H100 and H200 nodes (adapt hostnames and sbatch options)',
            'hostnames': [r'^login\d+'],
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'h100',
                    'descr': 'H100 nodes: one exclusive job per node, one GPU bound to it',
                    'scheduler': 'slurm',
                    'launcher': 'srun',
                    'access': ['--partition=gpu-h100', '--exclusive', '--gpus-per-node=1', '--gpu-bind=single:1'],
                    'environs': ['builtin'],
                    'max_jobs': 64,
                    'time_limit': '20m',
                    'extras': {'atomlab_profile': 'gpu', 'atomlab_references': 'nvidia-h100'},
                },
                {
                    'name': 'h200',
                    'descr': 'H200 nodes: one exclusive job per node, one GPU bound to it',
                    'scheduler': 'slurm',
                    'launcher': 'srun',
                    'access': ['--partition=gpu-h200', '--exclusive', '--gpus-per-node=1', '--gpu-bind=single:1'],
                    'environs': ['builtin'],
                    'max_jobs': 64,
                    'time_limit': '20m',
                    'extras': {'atomlab_profile': 'gpu', 'atomlab_references': 'nvidia-h200'},
                },
            ],
        },
        {
            'name': 'local',
            'descr': 'This machine: its best OpenCL or CUDA device (PoCL without a GPU)',
            'hostnames': [r'.*'],
            'prefix': os.path.normpath(LOCAL_PREFIX),
            'modules_system': 'nomod',
            'partitions': [
                {
                    'name': 'default',
                    'scheduler': 'local',
                    'launcher': 'local',
                    'environs': ['builtin'],
                    'max_jobs': 2,
                    'extras': {'atomlab_profile': 'quick'},
                },
            ],
        },
    ],
}
