package service

import (
	"context"
	"strings"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// Bounds of one CheckResources call (one page of the answer): it reads the
// store in pages of checkStorePage resources and stops after opts.Top
// (DefaultCheckPage when 0, at most registry.MaxPageSize) resources of the
// type, or at the first store page boundary after checkTimeBudget. A page
// therefore holds at most MaxPageSize refusals of at most
// api.MaxRefusalDetails reasons each, whatever the store holds; the rest
// is on the next pages.
const (
	DefaultCheckPage = registry.MaxPageSize
	checkStorePage   = 100
	checkTimeBudget  = 2 * time.Second
)

// CheckResources is the dry-run admission of the stored resources of the
// API version id against a candidate schema: env is the body a PUT of the
// API version would send, checked as that PUT would check it (a candidate
// the PUT would refuse is refused with the same error). Each resource last
// written with the version is admitted, its secrets opened and merged in,
// as its next PUT would be, each with admission's own pattern budget;
// references are checked for form only, as they are by whoever writes
// them. Nothing is written. It returns one page and the token (After) of
// the next, "" after the last; ErrNotFound when the API version is not
// registered.
func (s *Service) CheckResources(ctx context.Context, id registry.ID, env Envelope, opts registry.ListOptions) (api.ResourceCheck, string, error) {
	out := api.ResourceCheck{Refused: []api.RefusedResource{}}
	if _, err := s.store.Get(ctx, id); err != nil {
		return out, "", err
	}
	candidate, err := s.registration(ctx, id, env)
	if err != nil {
		return out, "", err
	}
	raw, err := versionSchema(candidate)
	if err != nil {
		return out, "", err
	}
	schema, err := s.schemas.compile(raw) // not cached: a candidate is asked about once
	if err != nil {
		return out, "", invalid("the schema sent for %s/%s API version %s cannot be used to check resources (%v)", id.Provider, id.Type, id.Name, err)
	}
	top := opts.Top
	if top <= 0 {
		top = DefaultCheckPage
	}
	q := registry.InstanceQuery{Plane: id.Plane, Namespace: id.Provider, Type: id.Type}
	deadline := s.now().Add(checkTimeBudget)
	after := opts.After
	for scanned := 0; scanned < top; {
		page, err := s.store.ListInstances(ctx, q, registry.ListOptions{Top: min(checkStorePage, top-scanned), After: after})
		if err != nil {
			return out, "", err
		}
		for _, in := range page.Items {
			scanned++
			if !strings.EqualFold(in.APIVersion, id.Name) {
				continue
			}
			out.Checked++
			details, err := s.refusal(schema, in)
			if err != nil {
				return out, "", err
			}
			if len(details) > 0 {
				out.Refused = append(out.Refused, api.RefusedResource{ID: in.ID.String(), Details: details})
			}
		}
		after = page.Next
		if after == "" || s.now().After(deadline) {
			break
		}
	}
	return out, after, nil
}

// refusal returns why schema would refuse the next write of the stored
// resource in unchanged (nil when it would admit it): its properties with
// its secrets, as the client that wrote it holds them.
func (s *Service) refusal(schema *admission.Schema, in registry.Instance) ([]api.ErrorDetail, error) {
	doc := in.Properties
	if len(in.Secrets) > 0 {
		secret, err := s.openSecrets(in)
		if err != nil {
			return nil, err
		}
		if doc, err = admission.MergeSecrets(doc, secret); err != nil {
			return nil, registry.Errorf(registry.CodeInternal, "", "the stored secrets of %s do not fit its properties: %v", in.ID, err)
		}
	}
	_, violations := schema.Admit(doc)
	var details []api.ErrorDetail
	for _, v := range violations[:min(len(violations), api.MaxRefusalDetails)] {
		details = append(details, api.ErrorDetail{Code: v.Code, Target: v.Target, Message: v.Message})
	}
	return details, nil
}
