// Package bridge joins the generator to the registry where a udtc command
// needs both, since the registry never imports generator: gen's targets,
// the static site among them (Targets, SelectTargets), the checker
// as the server's check and comparison of API version schemas
// (CheckSchema, CompareSchemas), the bootstrap of a directory of manifests
// into a starting server (RegisterDir), generator/source's repository as
// the repository of a git publish (GitRepo, GitFiles), compiled
// manifests as a registry's summary of a namespace (ProviderSummary), and
// the registrations as the Bicep extension `udtc serve` hands out
// (BicepExtension).
package bridge
