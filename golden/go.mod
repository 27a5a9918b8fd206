module github.com/udtc/udtc/golden

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/invopop/jsonschema v0.14.0
	github.com/udtc/udtc v0.0.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.2 // indirect
)

// The generated code of every case but valid_basic imports the runtime
// published from this repository (--go-runtime module): the checkout's own.
replace github.com/udtc/udtc => ../
