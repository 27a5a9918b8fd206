package ucpspec

// commonTypes stands in for ARM's common types
// (common-types/resource-management/v3/types.json), which Radius's
// description refers to and the shared folder does not hold: only the
// definitions and the parameter the description uses, and those they
// use, written from ARM's documented shapes as Swagger 2.0. When the real
// file is added beside the description, it should replace this.
const commonTypes = `{
  "swagger": "2.0",
  "info": {"title": "Common types (stand-in)", "version": "3.0"},
  "paths": {},
  "definitions": {
    "Resource": {
      "type": "object",
      "properties": {
        "id": {"type": "string", "readOnly": true},
        "name": {"type": "string", "readOnly": true},
        "type": {"type": "string", "readOnly": true},
        "systemData": {"$ref": "#/definitions/systemData", "readOnly": true}
      },
      "x-ms-azure-resource": true
    },
    "ProxyResource": {
      "type": "object",
      "allOf": [{"$ref": "#/definitions/Resource"}]
    },
    "TrackedResource": {
      "type": "object",
      "properties": {
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "location": {"type": "string"}
      },
      "required": ["location"],
      "allOf": [{"$ref": "#/definitions/Resource"}]
    },
    "systemData": {
      "type": "object",
      "properties": {
        "createdBy": {"type": "string"},
        "createdByType": {"type": "string", "enum": ["User", "Application", "ManagedIdentity", "Key"]},
        "createdAt": {"type": "string", "format": "date-time"},
        "lastModifiedBy": {"type": "string"},
        "lastModifiedByType": {"type": "string", "enum": ["User", "Application", "ManagedIdentity", "Key"]},
        "lastModifiedAt": {"type": "string", "format": "date-time"}
      }
    },
    "ErrorResponse": {
      "type": "object",
      "properties": {"error": {"$ref": "#/definitions/ErrorDetail"}}
    },
    "ErrorDetail": {
      "type": "object",
      "properties": {
        "code": {"type": "string", "readOnly": true},
        "message": {"type": "string", "readOnly": true},
        "target": {"type": "string", "readOnly": true},
        "details": {"type": "array", "items": {"$ref": "#/definitions/ErrorDetail"}, "readOnly": true},
        "additionalInfo": {"type": "array", "items": {"$ref": "#/definitions/ErrorAdditionalInfo"}, "readOnly": true}
      }
    },
    "ErrorAdditionalInfo": {
      "type": "object",
      "properties": {
        "type": {"type": "string", "readOnly": true},
        "info": {"type": "object", "readOnly": true}
      }
    }
  },
  "parameters": {
    "ApiVersionParameter": {
      "name": "api-version",
      "in": "query",
      "required": true,
      "type": "string",
      "minLength": 1,
      "description": "The API version to use for this operation."
    }
  }
}`
