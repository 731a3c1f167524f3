/** The errors of uploads (no HTTP status here). */
import { Schema } from "effect"

/** The upload is larger than its field's `max_bytes` (or the server's cap); nothing of it is kept. */
export class FileTooLarge extends Schema.TaggedError<FileTooLarge>()("FileTooLarge", {}) {}

/** The field holds its `max` files already, or the submission its bytes. */
export class FileQuota extends Schema.TaggedError<FileQuota>()("FileQuota", {}) {}

/** No upload of this draft (or, for an organiser, of this organisation) has this id. */
export class FileNotFound extends Schema.TaggedError<FileNotFound>()("FileNotFound", {}) {}

/** The client stopped sending before the body ended; nothing of it is kept. */
export class UploadAborted extends Schema.TaggedError<UploadAborted>()("UploadAborted", {}) {}
