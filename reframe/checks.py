# atomlab's node checks for ReFrame (settings.py; docs/guide/fleet.md): a short datasheet sweep and the report,
# run-only tests whose sanity is every row verified and whose performance variables are the datasheet's peak and
# same-address rates, with the references of references.json for the partition's device model.
#
# Variables (reframe -S NAME=VALUE):
#   atomlab    the atomlab binary  [$ATOMLAB, else build/atomlab beside this folder, else atomlab on PATH]
#   fleet_dir  where each node's result files are collected, as fleet_dir/<node>/ for `atomlab fleet`  [none]
import json
import os

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import run_after, run_before, sanity_function, variable
from reframe.core.exceptions import SanityError

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, 'references.json')) as f:
    REFERENCES = json.load(f)

# The datasheet's ops the checks measure: op/type/space/result, as references.json names them.
OPS = ['fetch_add/u32/global/unused', 'cas/u32/global/unused', 'fetch_add/u32/local/unused', 'cas/u32/local/unused']
MEASURES = ['peak_gops', 'same_address_gops']

# Settings per partition profile: 'gpu' repeats the reference files' settings (a datasheet at contention 1 and
# 1024, the report in full); 'quick' keeps each check to seconds on PoCL (contention 1 and 4, fixed iterations).
PROFILES = {
    'gpu': {'contention': '1,1024', 'timing': ['--target-ms', '10', '--budget', '0.5', '--max-samples', '20'],
            'report': []},
    'quick': {'contention': '1,4', 'timing': ['--iters', '20', '--min-samples', '3', '--max-samples', '3'],
              'report': ['--quick']},
}


def default_atomlab():
    given = os.environ.get('ATOMLAB')
    if given:  # a path is made absolute: the checks run in their stage folders
        return os.path.abspath(given) if os.sep in given else given
    built = os.path.abspath(os.path.join(HERE, '..', 'build', 'atomlab'))
    return built if os.path.exists(built) else 'atomlab'


def perf_name(op, measure):
    return op.replace('/', '_') + '_' + measure


def read_rows(path):
    try:
        with open(path) as f:
            return json.load(f)['rows']
    except (OSError, ValueError, KeyError) as e:
        raise SanityError(f'{path}: not an atomlab result file ({e})')


def metric(row, name):
    return next((m['value'] for m in row.get('metrics', []) if m['name'] == name), None)


def key_of(row):
    c = row['config']
    return '/'.join(str(c.get(k)) for k in ('op', 'type', 'space', 'result'))


@sn.deferrable
def every_row_verified(path, expected):
    rows = read_rows(path)
    bad = [f"{key_of(r)} ({r['status']}{'' if r.get('verified') else ', not verified'})" for r in rows
           if r['status'] != 'ok' or not r.get('verified')]
    if bad:
        raise SanityError(f"{path}: {len(bad)} of {len(rows)} rows failed: {', '.join(bad[:4])}")
    if expected is not None and len(rows) != expected:
        raise SanityError(f'{path}: {len(rows)} rows, {expected} planned')
    return True


@sn.deferrable
def sweep_rate(path, op, measure):
    """The datasheet's rate from an rmw sweep: the peak is the fastest row at contention 1, the same-address rate
    the row of the most threads per word at padding 1 (atl_datasheet's rule)."""
    rows = [r for r in read_rows(path) if key_of(r) == op and r['config'].get('pattern') == 'contiguous']
    if measure == 'peak_gops':
        rates = [metric(r, 'gops') for r in rows if r['config'].get('contention') == 1]
        return max(rates) if rates else 0.0
    hot = [r for r in rows if r['config'].get('padding') == 1 and r['config'].get('contention', 1) > 1]
    return metric(max(hot, key=lambda r: r['config']['contention']), 'gops') if hot else 0.0


@sn.deferrable
def datasheet_rate(path, op, measure):
    row = next((r for r in read_rows(path) if key_of(r) == op), None)
    return (metric(row, measure) or 0.0) if row else 0.0


class AtomlabCheck(rfm.RunOnlyRegressionTest):
    """What both checks share: the binary, the partition's profile and references, collecting the node's files."""

    atomlab = variable(str, value=default_atomlab())
    fleet_dir = variable(str, value='')
    valid_systems = ['*']
    valid_prog_environs = ['*']
    sourcesdir = None
    num_tasks = 1
    tags = {'atomlab'}
    collect = []  # files of the stage folder copied into fleet_dir/<node>/ as (source, name)

    def extra(self, name, default=None):
        return self.current_partition.extras.get(name, default)

    @property
    def profile(self):
        name = self.extra('atomlab_profile', 'quick')
        if name not in PROFILES:
            raise ValueError(f"atomlab_profile '{name}': allowed: {', '.join(PROFILES)}")
        return PROFILES[name]

    def device_opts(self):
        device = self.extra('atomlab_device')
        return ['--device', device] if device else []

    @run_after('setup')
    def set_references(self):
        model = self.extra('atomlab_references')
        if model is None:  # no figures for this device: the rates are logged, not judged
            return
        if model not in REFERENCES['devices']:
            raise ValueError(f"atomlab_references '{model}': allowed: {', '.join(REFERENCES['devices'])}")
        rates = {op: dict(v) for op, v in REFERENCES['devices'][model]['rates'].items()}
        for op, values in self.extra('atomlab_reference_overrides', {}).items():
            rates.setdefault(op, {}).update(values)
        lower, upper = self.extra('atomlab_tolerance', [REFERENCES['tolerance']['lower'],
                                                        REFERENCES['tolerance']['upper']])
        self.reference = {'*': {perf_name(op, m): (v[m], lower, upper, 'Gop/s')
                                for op, v in rates.items() if op in OPS for m in MEASURES if m in v}}

    @run_before('run')
    def collect_files(self):
        if not self.fleet_dir:
            return
        node = os.path.join(os.path.abspath(self.fleet_dir), '$(hostname -s)')
        # the job's exit status stays atomlab's: the sanity judges the command, not the copy
        self.postrun_cmds = (['atl_rc=$?', f'mkdir -p "{node}"'] +
                             [f'cp -r {src} "{node}/{name}"' for src, name in self.collect] + ['exit $atl_rc'])


@rfm.simple_test
class AtomlabDatasheet(AtomlabCheck):
    """A short datasheet: fetch_add and cas on u32 in global and local memory at one and at the most threads per
    word (contiguous, padding 1); every row must verify."""

    descr = 'atomlab: short atomics datasheet (peak and same-address rates)'
    collect = [('datasheet-rmw.json', 'datasheet-rmw.json')]
    keep_files = ['datasheet-rmw.json']

    @run_after('setup')
    def set_command(self):
        p = self.profile
        self.executable = self.atomlab
        self.executable_opts = (['rmw', '--pattern', 'contiguous', '--op', 'fetch_add,cas', '--type', 'u32',
                                 '--space', 'global,local', '--result', 'unused', '--contention', p['contention'],
                                 '--padding', '1'] + p['timing'] + self.device_opts() +
                                ['-o', 'datasheet-rmw.json', '--quiet'])
        path = os.path.join(self.stagedir, 'datasheet-rmw.json')
        self.rows = 2 * 2 * len(p['contention'].split(','))
        self.perf_variables = {perf_name(op, m): sn.make_performance_function(sweep_rate(path, op, m), 'Gop/s')
                               for op in OPS for m in MEASURES}

    @sanity_function
    def verified(self):
        return sn.all([sn.assert_eq(self.job.exitcode, 0, msg='atomlab rmw exited {0}'),
                       every_row_verified(os.path.join(self.stagedir, 'datasheet-rmw.json'), self.rows)])


@rfm.simple_test
class AtomlabReport(AtomlabCheck):
    """The default report of the node (atomlab report): every step done, every row of its sweeps verified; its
    datasheet's rates as performance variables."""

    descr = 'atomlab: the report (datasheet, sweep, strategies, histogram)'
    collect = [('report/data/datasheet.json', 'datasheet.json'), ('report', 'report')]
    keep_files = ['report/report.md', 'report/data']

    @run_after('setup')
    def set_command(self):
        self.executable = self.atomlab
        self.executable_opts = ['report', '-o', 'report'] + self.profile['report'] + self.device_opts()
        data = os.path.join(self.stagedir, 'report', 'data')
        self.perf_variables = {
            perf_name(op, m): sn.make_performance_function(datasheet_rate(os.path.join(data, 'datasheet.json'), op, m),
                                                           'Gop/s')
            for op in OPS for m in MEASURES}

    @sanity_function
    def verified(self):
        data = os.path.join(self.stagedir, 'report', 'data')
        return sn.all([sn.assert_eq(self.job.exitcode, 0, msg='atomlab report exited {0}'),
                       sn.assert_found(r'^# ', os.path.join(self.stagedir, 'report', 'report.md')),
                       every_row_verified(os.path.join(data, 'rmw.json'), None),
                       every_row_verified(os.path.join(data, 'datasheet.json'), None)])
