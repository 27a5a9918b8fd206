package ucpspec

import _ "embed"

// commonTypes stands in for ARM's common types
// (common-types/resource-management/v3/types.json), which Radius's
// description refers to and the shared folder does not hold: only the
// definitions and the parameter the description uses, and those they
// use, written from ARM's documented shapes as Swagger 2.0. When the real
// file is added beside the description, it should replace this.
//
//go:embed commontypes.json
var commonTypes []byte
