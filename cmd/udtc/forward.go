package main

import (
	"cmp"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/egress"
	"github.com/udtc/udtc/registry/server"
)

// forwardFlags are serve's --forward-* flags: where requests of the types
// served at an address may be forwarded, and the limits of forwarding.
type forwardFlags struct {
	allow         cli.StringSlice
	maxConcurrent int
	maxBody       int64
	timeout       time.Duration
}

func (f *forwardFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "forward-allow", Usage: "forward resource requests only to these `RULES` (repeatable or comma-separated): [http:// or https://]HOST[:PORT] (HOST: a name, *.domain, *, an IP address) or a CIDR; \"none\" forwards nowhere (default: loopback, when --addr is loopback)", Destination: &f.allow},
		&cli.IntFlag{Name: "forward-max-concurrent", Value: server.DefaultForwardMaxConcurrent, Usage: "most requests forwarded to one resource provider at a time; more get 503 with Retry-After", Destination: &f.maxConcurrent},
		&cli.Int64Flag{Name: "forward-max-body-bytes", Value: server.DefaultForwardMaxBodyBytes, Usage: "largest response body accepted from a resource provider; larger ones are a 502", Destination: &f.maxBody},
		&cli.DurationFlag{Name: "forward-timeout", Value: server.DefaultForwardTimeout, Usage: "time a resource provider has to answer a forwarded request, whole body included", Destination: &f.timeout},
	}
}

// options checks the flags and returns the server's forwarding options;
// the listen addresses are the serve process's business.
func (f *forwardFlags) options() (server.ForwardOptions, error) {
	rules, err := egress.Parse(f.allow.Value())
	if err != nil {
		return server.ForwardOptions{}, usageErrorf("--forward-allow: %v", err)
	}
	err = cmp.Or(atLeast("forward-max-concurrent", f.maxConcurrent, 1), atLeast("forward-max-body-bytes", f.maxBody, 1),
		atLeast("forward-timeout", f.timeout, time.Second))
	return server.ForwardOptions{Allow: rules, MaxConcurrent: f.maxConcurrent, MaxBodyBytes: f.maxBody, Timeout: f.timeout}, err
}
