/** A form's languages and translations on the wire (the organiser's definition and form). */
import { Schema } from "effect"

export const LanguagesWire = Schema.Array(Schema.String).annotate({
  description: "BCP 47 language tags, the first the form's default (default [\"en\"], at most 20)."
})

const FieldTexts = Schema.Struct({
  label: Schema.optionalKey(Schema.String),
  help: Schema.optionalKey(Schema.String),
  options: Schema.optionalKey(Schema.Record(Schema.String, Schema.String).annotate({ description: "Option value → label." }))
})

export const TranslationsWire = Schema.Record(
  Schema.String,
  Schema.Struct({
    name: Schema.optionalKey(Schema.String),
    sections: Schema.optionalKey(Schema.Record(Schema.String, Schema.Struct({ name: Schema.optionalKey(Schema.String) })).annotate({
      description: "Section id → its texts."
    })),
    fields: Schema.optionalKey(Schema.Record(Schema.String, FieldTexts).annotate({ description: "Field slug → its texts." })),
    messages: Schema.optionalKey(Schema.Struct({
      confirmation: Schema.optionalKey(Schema.Struct({ subject: Schema.optionalKey(Schema.String), body: Schema.optionalKey(Schema.String) }))
    }))
  })
).annotate({
  identifier: "Translations",
  description: "Language tag (one of `languages`, not the default) → the form's texts in it; every member optional, a missing " +
    "text falls back to the default language's."
})
