# Thin wrapper over CMake; the README's two commands are scripts/main.sh and scripts/test.sh.
.PHONY: all build test gpu-check run clean

all: build

build:
	bash scripts/build.sh

test:
	bash scripts/test.sh

# The GPU tests (label gpu); run on a machine with a GPU.
gpu-check: build
	cd build && ctest -L gpu --output-on-failure

run:
	bash scripts/main.sh

clean:
	rm -rf build
