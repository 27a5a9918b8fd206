package main

import (
	"os"
)

// isTerminal reports whether stdin, stdout or stderr (f, an io.Reader or
// io.Writer) is a character device (a terminal).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
