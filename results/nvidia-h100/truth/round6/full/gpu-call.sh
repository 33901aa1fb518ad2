rm -rf /tmp/w-* /tmp/o; mkdir -p /tmp/o/truth-full; trap 'tar -czf $OUT/x.tgz -C /tmp/o .' EXIT
mkdir -p /tmp/w-main && tar -xJf .gb/main6.tar.xz -C /tmp/w-main; cd /tmp/w-main
export LD_LIBRARY_PATH=$PWD/build/device-libs; S=$(date +%s); O=/tmp/o/truth-full
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv; build/atomlab version; } > $O/info.txt 2>&1
timeout -s INT -k 15 450 build/atomlab rmw --device cuda:0 --pattern all --op fetch_add,cas --contention 1:1024 --padding 1:1024 --repeat 3 --placements 8 --rotate --target-ms 1.5 --min-samples 32 --max-samples 32 --budget 0.03 --quiet -o $O/grid.json > $O/run.log 2>&1
echo "grid exit $? after $(( $(date +%s)-S )) s" | tee -a $O/run.log
python3 scripts/truth_repeatability.py $O/grid.json "full grid, --placements 8 --rotate, 32 samples" > $O/summary.txt 2>&1; head -6 $O/summary.txt
LEFT=$(( 575 - $(date +%s) + S ))
if [ $LEFT -gt 60 ]; then CROSSCHECK_PLACEMENTS=8 CROSSCHECK_OUT=$O/crosscheck.txt timeout -k 5 $LEFT bash tests/cli/gpu_crosscheck.sh $PWD/build/atomlab build/standalone_rmw >> $O/run.log 2>&1; echo "crosscheck exit $? after $(( $(date +%s)-S )) s" | tee -a $O/run.log; cat $O/crosscheck.txt; fi
gzip -f $O/grid.json
