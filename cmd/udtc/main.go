// Command udtc compiles user-defined resource type manifests, serves the
// resource type registry and publishes manifests into it.
package main

import (
	"context"
	"os"
)

func main() { os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr)) }
