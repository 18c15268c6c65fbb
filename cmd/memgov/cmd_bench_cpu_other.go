//go:build !unix

package main

import "time"

// processCPU is not measured here: benchmarks report 0.
func processCPU() time.Duration { return 0 }
