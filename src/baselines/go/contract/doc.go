// Package contract is the wire contract of docs/contract.md, independent of any HTTP stack: reading
// front-end request bodies (the classic payload with its single-quoted inner document, typed events,
// JSON array and NDJSON batches), validation and normalisation, the forward body, the back-end's
// re-check, and every answer body including the problem+json errors.
//
// It is shared by the net/http services and the fasthttp front-end, so the two speak the contract
// through one implementation. The rules follow the .NET implementation in src/Ingest.Core (validation
// order, paths, limits counted in UTF-16 code units, case-insensitive matching as OrdinalIgnoreCase).
package contract
