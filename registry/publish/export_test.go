package publish

// SchemaDiffForTest exposes schemaDiff to the external tests.
var SchemaDiffForTest = schemaDiff
