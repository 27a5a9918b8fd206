package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// The JSON the registry reads: request bodies are decoded strictly (no
// unknown fields, nothing after the value), and every decoding error is
// said in JSON's terms, never in the server's Go types.

// Envelope is a decoded PUT body: the fields every resource body shares.
type Envelope struct {
	Location string
	Tags     map[string]string
	// Properties is the body's properties as sent; nil when absent.
	Properties json.RawMessage
}

// wireEnvelope is the PUT body as decoded; read-only fields are accepted
// and ignored so that a GET body can be PUT back.
type wireEnvelope struct {
	ID         json.RawMessage   `json:"id"`
	Name       json.RawMessage   `json:"name"`
	Type       json.RawMessage   `json:"type"`
	Location   string            `json:"location"`
	Tags       map[string]string `json:"tags"`
	Properties json.RawMessage   `json:"properties"`
	SystemData json.RawMessage   `json:"systemData"`
	ETag       json.RawMessage   `json:"etag"`
}

// DecodeEnvelope decodes and checks a PUT body: a JSON object of the
// envelope's fields, with a valid location and tags.
func DecodeEnvelope(body []byte) (Envelope, error) {
	var env wireEnvelope
	if err := DecodeBody(body, &env); err != nil {
		return Envelope{}, err
	}
	if p := api.ResourceLocationProblem(env.Location); p != "" {
		return Envelope{}, registry.Errorf(registry.CodeInvalid, "location", "location %.80q %s", env.Location, p)
	}
	if p := api.TagsProblem(env.Tags); p != "" {
		return Envelope{}, registry.Errorf(registry.CodeInvalid, "tags", "tags: %s", p)
	}
	return Envelope{Location: env.Location, Tags: env.Tags, Properties: env.Properties}, nil
}

// DecodeBody decodes a request body, which must be a JSON object, into v
// strictly (DecodeStrict); its errors are CodeInvalid.
func DecodeBody(body []byte, v any) error {
	if !isObject(body) {
		// null, a list or a scalar: never read as {}.
		return invalid("the request body must be a JSON object")
	}
	if err := DecodeStrict(body, v); err != nil {
		return invalid("invalid request body: %v", err)
	}
	return nil
}

// DecodeStrict decodes one JSON value into v, rejecting unknown fields and
// trailing data. Its errors speak of JSON, never of Go types.
func DecodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return jsonProblem(err)
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

// decodeProperties decodes the properties of a PUT body strictly into v.
func decodeProperties(props json.RawMessage, v any) error {
	if err := DecodeStrict(props, v); err != nil {
		return invalid("invalid properties: %v", err)
	}
	return nil
}

// jsonProblem translates an encoding/json error into the user's terms: the
// field and the JSON kinds involved, without the server's Go type names.
func jsonProblem(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if te.Field == "" {
			return fmt.Errorf("expected %s, got a JSON %s", jsonKind(te.Type), te.Value)
		}
		return fmt.Errorf("%s must be %s, not a JSON %s", te.Field, jsonKind(te.Type), te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("not valid JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON text ends early")
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field ") {
		return errors.New(msg)
	}
	if strings.Contains(msg, "Go ") {
		return errors.New("the JSON value does not have the expected shape")
	}
	return errors.New(msg)
}

// jsonKind names the JSON value a Go type accepts.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Name() == "RawMessage" {
			return "a JSON value"
		}
		return "a list"
	case reflect.Map:
		if t.Elem().Kind() == reflect.String {
			return "an object of strings"
		}
		return "an object"
	case reflect.Struct:
		return "an object"
	}
	return "another kind of value"
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// absent reports whether a body's properties are absent or null.
func absent(props json.RawMessage) bool {
	t := bytes.TrimSpace(props)
	return len(t) == 0 || string(t) == "null"
}

// invalid returns a CodeInvalid error with a formatted message.
func invalid(format string, args ...any) error {
	return registry.Errorf(registry.CodeInvalid, "", format, args...)
}

// Marshal encodes v without HTML escaping, so that stored JSON is returned
// as it was stored (api.Marshal).
func Marshal(v any) (json.RawMessage, error) { return api.Marshal(v) }
