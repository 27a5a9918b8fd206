package harness

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes where the numbers were measured.
type Machine struct {
	CPUs     int
	CPUModel string
	// MemoryBytes is MemTotal, 0 when unknown.
	MemoryBytes int64
	OS, Arch    string
	GoVersion   string
}

// ReadMachine returns facts about this machine; fields it cannot read (a
// non-Linux system) are left empty.
func ReadMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version()}
	m.CPUModel = procField("/proc/cpuinfo", "model name")
	if kb := procField("/proc/meminfo", "MemTotal"); kb != "" {
		n, err := strconv.ParseInt(strings.TrimSuffix(kb, " kB"), 10, 64)
		if err == nil {
			m.MemoryBytes = n * 1024
		}
	}
	return m
}

// String renders the machine on one line.
func (m Machine) String() string {
	model := m.CPUModel
	if model == "" {
		model = "unknown CPU"
	}
	mem := "unknown memory"
	if m.MemoryBytes > 0 {
		mem = fmt.Sprintf("%.1f GiB RAM", float64(m.MemoryBytes)/(1<<30))
	}
	return fmt.Sprintf("%d CPUs (%s), %s, %s/%s, %s", m.CPUs, model, mem, m.OS, m.Arch, m.GoVersion)
}

// procField returns the value of the first "key: value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// LoadAverage returns the 1-, 5- and 15-minute load averages as written in
// /proc/loadavg ("0.52 0.31 0.20"), or "" when unknown. Benchmarks quote it
// because other processes on the machine skew their numbers.
func LoadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
