//go:build race

package e2e_test

// raceEnabled: the race detector slows every request several times, so
// latency bounds are not asserted under it (failures and stalls still are).
const raceEnabled = true
