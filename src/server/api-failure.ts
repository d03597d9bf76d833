import type { ApiError } from "../client/api-types.js";

/** A refusal the API answers with its status and a JSON body naming what was wrong. */
export class ApiFailure extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422,
    message: string,
    readonly extra: Omit<ApiError, "error"> = {},
  ) {
    super(message);
  }
}
