#!/usr/bin/env bash
# Bad input to `atomlab app`: one line naming the parameter, exit 2, no file.
. "$(dirname "$0")/lib.sh"
need_opencl

expect_usage_error "app 'sort'" app sort
expect_usage_error "--containers" app count --containers 0
expect_usage_error "--containers" app count --containers abc
expect_usage_error "--containers" app count --containers 5000000000
expect_usage_error "--items" app count --items 0
expect_usage_error "--items" app count --items 5000
expect_usage_error "--containers" app count --containers 4000000000 --items 2
expect_usage_error "--limit" app count --limit x1
expect_usage_error "--wg-size" app count --wg-size 48
expect_usage_error "--wg-size" app count --wg-size 0
expect_usage_error "--samples" app count --samples 0
expect_usage_error "--samples" app list --samples 1000
expect_usage_error "--backend" app list --backend metal
expect_usage_error "--device" app list --device 99
expect_usage_error "--format" app list --format xml
expect_usage_error "--spin-bound" app double-add --spin-bound -1
expect_usage_error "--threads" app double-add --threads 100 --wg-size 64
expect_usage_error "--targets" app double-add --threads 64 --targets 65 --wg-size 64
expect_usage_error "--adds" app double-add --adds 0
expect_usage_error "--nodes" app list --nodes 0
expect_usage_error "--lists" app list --nodes 10 --lists 11
expect_usage_error "--threads" app skiplist --threads 0
expect_usage_error "--op" app access-table --op plain_add
expect_usage_error "--op" app access-table --op fetch_mul
expect_usage_error "--type" app access-table --type f32
expect_usage_error "--target-ms" app access-table --target-ms 0
expect_usage_error "--same-address-threads" app access-table --same-address-threads 0
expect_usage_error "--input" app histogram --input u16
expect_usage_error "--input" app histogram --input ,
expect_usage_error "--dist" app histogram --dist gaussian
expect_usage_error "--variants" app histogram --variants read-ceiling
expect_usage_error "--variants" app histogram --variants shared,bogus
expect_usage_error "--bins" app histogram --input u32 --bins 1000
expect_usage_error "--bins" app histogram --input u32 --bins 131072
expect_usage_error "--bins" app histogram --input u8 --bins 4096
expect_usage_error "--bytes" app histogram --bytes 100
expect_usage_error "--bytes" app histogram --bytes 0
expect_usage_error "--bytes" app histogram --bytes 4294967296
expect_usage_error "--wg-size" app histogram --wg-size 48
expect_usage_error "unknown option" app count --bogus
expect_usage_error "--items" app count --items
expect_usage_error "unexpected argument" app list extra
expect_usage_error "-o" app list -o /nonexistent/dir/x.json
# --help of every app exits 0 and lists the common options
for a in count access-table double-add list skiplist histogram; do
  "$ATOMLAB" app $a --help | grep -q -- '--spin-bound' && pass || fail "app $a --help"
done
"$ATOMLAB" app --help | grep -q skiplist && pass || fail "app --help lists the apps"
finish
