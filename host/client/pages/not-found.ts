import { sendHtml } from '../../web/page-response';
import { clientStatusPage } from '../client-layout';
import { ClientRequest } from '../client-request';

/**
 * What a client sees for a record that does not exist or is not theirs: the same page either way,
 * so an id in a URL or form tells nothing about another client's records.
 */
export function notFound(request: Pick<ClientRequest, 'ctx' | 'company'>): void {
  sendHtml(request.ctx, 404, clientStatusPage('status.notFound', 'status.notYours', request.company));
}
