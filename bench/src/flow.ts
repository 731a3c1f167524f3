/** One visitor's flow on the bench form: create → three saves of ten fields → submit, with valid values. */

export const benchToken = "bench-volunteers-2027-public-token"

export const steps = ["create", "save1", "save2", "save3", "submit"] as const
export type Step = (typeof steps)[number]

/** What each step must answer; anything else is an error. */
export const expectedStatus: Readonly<Record<Step, number>> = {
  create: 201,
  save1: 200,
  save2: 200,
  save3: 200,
  submit: 200
}

const pick = <A>(items: ReadonlyArray<A>, n: number): A => items[n % items.length] as A

/** The three saves' values of flow number `n`; the email is unique to the flow (`unique` field). */
export const flowValues = (n: number, id: string): readonly [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>] => [
  {
    email: `Volunteer.${id}@Example.org`,
    first_name: pick(["Ann", "Bram", "Chloé", "Daan", "Eva"], n),
    last_name: pick(["de Vries", "Jansen", "Bakker", "Visser"], n),
    phone: pick(["+31 6 1234 5678", "(020) 555-0101", "06-87654321"], n),
    birth_date: pick(["1990-04-12", "1985-11-30", "2001-02-28T09:30:00Z"], n),
    postcode: pick(["1234 AB", "9876zz", "1011 ab"], n),
    city: pick(["Amsterdam", "Utrecht", "Gent"], n),
    country: pick(["NL", "BE", "DE", "other"], n),
    website: pick(["https://example.org/me", "http://volunteer.example.com"], n),
    pronouns: pick(["she", "he", "they", null], n)
  },
  {
    shirt_size: pick(["S", "M", "L", "XL"], n),
    days: pick([["fri", "sat"], ["sun"], ["fri", "sat", "sun", "mon"]], n),
    shifts_wanted: pick([3, "5", 1, "10"], n),
    hours_per_shift: pick([4, "6.5", 8], n),
    available_from: pick(["2027-08-15", "2027-08-01"], n),
    has_drivers_license: pick([true, false, "1"], n),
    can_lift: pick([false, "true", 0], n),
    roles: pick([["bar"], ["stage", "info"], ["security", "cleaning", "parking"]], n),
    experience_years: pick([0, 2, "12"], n),
    first_aid: pick([true, "false"], n)
  },
  {
    languages: pick([["nl", "en"], ["de"], ["fr", "es", "en"]], n),
    diet: pick(["none", "vegan", "halal"], n),
    allergies: pick(["", "peanuts", "None that I know of."], n),
    emergency_name: pick(["Piet Jansen", "Mia Smit"], n),
    emergency_phone: pick(["+32 470 12 34 56", "0612345678"], n),
    motivation: pick([
      "I love the festival and want to help out this year.",
      "Volunteering with friends is the best way to spend a summer weekend."
    ], n),
    referral_code: pick(["ABC-1234", "", "XYZ-0001"], n),
    instagram: pick(["https://instagram.com/someone", ""], n),
    agree_terms: true,
    newsletter: pick([true, false], n)
  }
]
