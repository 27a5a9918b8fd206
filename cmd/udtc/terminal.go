package main

import (
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether stdin, stdout or stderr (f, an io.Reader or
// io.Writer) is a terminal. A character device is not enough: /dev/null is
// one, and `udtc publish </dev/null` must not wait for an answer.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}
