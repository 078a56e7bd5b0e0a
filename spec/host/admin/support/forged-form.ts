import type { Page, Response } from 'playwright-core';

/**
 * Posts a form the page did not offer, built by hand inside the signed-in page with the session's
 * own CSRF token (from the sign-out form every staff page carries): what a member who edits the
 * page, or a script in it, could send. Answers the response to that post.
 */
export async function postForgedForm(page: Page, action: string, fields: Record<string, string>): Promise<Response> {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === action && response.request().method() === 'POST');
  await page.evaluate(
    ([path, values]) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = path;
      const token = (document.querySelector('input[name="_csrf"]') as HTMLInputElement).value;
      for (const [name, value] of Object.entries({ ...values, _csrf: token })) form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
      document.body.append(form);
      form.submit();
    },
    [action, fields] as const,
  );
  const response = await answered;
  await page.waitForLoadState();
  return response;
}
