//go:build race

package main

// raceEnabled: the race detector multiplies memory and time, so memory
// bounds are not measured under it.
const raceEnabled = true
