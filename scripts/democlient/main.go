//go:build ignore

// The Go client step of `make run` (scripts/demo.sh): a program written
// against the client `udtc gen --go-module example.com/udtc-demo` wrote into
// out/, built there with `go run` (the build tag keeps it out of this
// repository's packages). It creates a resource group, two buses and a
// queue with the typed structs and enums, lists the buses, and deletes the
// group with everything in it.
//
//	cd out && go run ../scripts/democlient/main.go http://127.0.0.1:7443
package main

import (
	"context"
	"fmt"
	"os"

	v "example.com/udtc-demo/go/contosomessaging/v20250601"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: democlient SERVER_URL")
		os.Exit(2)
	}
	if err := run(context.Background(), os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "democlient:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, endpoint string) error {
	opts := v.ClientOptions{Endpoint: endpoint}
	groups, err := v.NewResourceGroupsClient(opts)
	if err != nil {
		return err
	}
	buses, err := v.NewBusClient(opts)
	if err != nil {
		return err
	}
	queues, err := v.NewBusQueueClient(opts)
	if err != nil {
		return err
	}

	// Every resource lives in a resource group: create it first.
	rg, err := groups.CreateOrUpdate(ctx, "demo-go", nil, nil)
	if err != nil {
		return err
	}
	fmt.Println("created", *rg.ID)
	env := *rg.ID + "/providers/Radius.Core/environments/dev"
	for name, tier := range map[string]v.BusTier{"bus1": v.BusTierStandard, "bus2": v.BusTierPremium} {
		bus := &v.Bus{Properties: &v.BusProperties{Environment: v.Ptr(env), Tier: v.Ptr(tier)}}
		if _, err := buses.CreateOrUpdate(ctx, v.NewBusID(*rg.ID, name), bus, nil); err != nil {
			return err
		}
	}
	q, err := queues.CreateOrUpdate(ctx, v.NewBusQueueID(*rg.ID, "bus1", "orders"),
		&v.BusQueue{Properties: &v.BusQueueProperties{Environment: v.Ptr(env), DeadLettering: v.Ptr(true)}}, nil)
	if err != nil {
		return err
	}
	fmt.Printf("created %s (maxDeliveryCount %d, the default)\n", *q.ID, *q.Properties.MaxDeliveryCount)

	for b, err := range buses.List(ctx, *rg.ID, nil) {
		if err != nil {
			return err
		}
		fmt.Printf("listed %s: tier %s\n", *b.Name, *b.Properties.Tier)
	}
	if err := groups.Delete(ctx, "demo-go", nil); err != nil {
		return err
	}
	fmt.Println("deleted", *rg.ID, "and its resources")
	return nil
}
