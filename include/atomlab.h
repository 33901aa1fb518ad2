/**
 * @file atomlab.h
 * Umbrella header of atomlab: characterize, model and optimize atomic
 * read-modify-write operations on GPUs and CPUs.
 */
#ifndef ATOMLAB_H
#define ATOMLAB_H

#include "atomlab/error.h"
#include "atomlab/device.h"
#include "atomlab/experiment.h"
#include "atomlab/result.h"
#include "atomlab/rmw.h"
#include "atomlab/sweep.h"
#include "atomlab/grid.h"
#include "atomlab/findings.h"
#include "atomlab/datasheet.h"
#include "atomlab/compare.h"
#include "atomlab/strategy.h"
#include "atomlab/model.h"
#include "atomlab/swmodel.h"
#include "atomlab/l2model.h"
#include "atomlab/app.h"
#include "atomlab/file.h"
#include "atomlab/stop.h"
#include "atomlab/process.h"
#include "atomlab/plot.h"
#include "atomlab/report.h"
#include "atomlab/fleet.h"
#include "atomlab/scatter.h"
#include "atomlab/diagnose.h"

#endif
