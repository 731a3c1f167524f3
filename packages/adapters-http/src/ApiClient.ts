/** A typed client made from the same definition as the server. Needs an `HttpClient` (e.g. FetchHttpClient). */
import { HttpApiClient } from "effect/http-api"
import { Api } from "./Api.js"

export type ApiClient = HttpApiClient.ForApi<typeof Api>

export const makeApiClient = (baseUrl: string | URL) => HttpApiClient.make(Api, { baseUrl })
