/** What `ctx.http.fetch` takes: a small subset of fetch's options, all plain data. */
export interface HttpRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  headers?: Record<string, string>;
  /** Sent as is; JSON.stringify an object first. */
  body?: string | null;
}

/** The host's answer: the status, the headers (lowercase names) and the body as text. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}
