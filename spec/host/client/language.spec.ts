import { expect } from 'chai';
import { TestServer } from '../../support/test-server';
import { newCompany, ok } from '../api/billing/fixtures';
import { Catalogue, EN, MessageKey } from '../../../host/client/language/messages-en';
import { ES } from '../../../host/client/language/messages-es';
import { FR } from '../../../host/client/language/messages-fr';
import { catalogueWords, clientWords } from '../../../host/client/language/client-words';
import { clientAreaServer, SeededClient, seedClient, signedIn } from './support/client-fixture';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("client area in the company's language", () => {
  describe('the catalogues', () => {
    for (const [name, catalogue] of [
      ['Spanish', ES],
      ['French', FR],
    ] as Array<[string, Catalogue]>) {
      it(`has every English key in ${name}, with the same {values} and no markup`, () => {
        const missing = (Object.keys(EN) as MessageKey[]).filter((key) => !catalogue[key]);
        expect(missing, `keys ${name} lacks`).to.deep.equal([]);
        for (const key of Object.keys(EN) as MessageKey[]) {
          expect(placeholders(catalogue[key]!), `${name} ${key}`).to.deep.equal(placeholders(EN[key]));
          expect(catalogue[key], `${name} ${key}`).not.to.match(/[<>]/);
        }
        expect(
          Object.keys(catalogue).filter((key) => !(key in EN)),
          `keys ${name} has that English does not`,
        ).to.deep.equal([]);
      });
    }

    it('shows a key a language lacks in English, and a language the area is not written in as English', () => {
      const partial = catalogueWords('es-ES', { 'nav.invoices': 'Facturas' });
      expect(partial.t('nav.invoices')).to.equal('Facturas');
      expect(partial.t('nav.services')).to.equal('Services');
      expect(clientWords('de_de').lang).to.equal('en');
      expect(clientWords('de_de').t('nav.invoices')).to.equal('Invoices');
      expect(clientWords(null).lang).to.equal('en-US');
      expect(clientWords('es_mx').lang).to.equal('es-MX');
    });

    it('chooses the plural the language needs, and puts values in as given', () => {
      const fr = clientWords('fr_fr');
      expect(fr.plural('signIn.locked', 1)).to.equal('Trop de tentatives de connexion échouées. Réessayez dans 1 minute.');
      expect(fr.plural('signIn.locked', 2)).to.equal('Trop de tentatives de connexion échouées. Réessayez dans 2 minutes.');
      expect(clientWords('es_es').t('invoice.title', { invoice: '<b>7</b>' })).to.equal('Factura <b>7</b>');
    });
  });

  describe('over HTTP', () => {
    let server: TestServer;
    let ana: SeededClient;
    let other: Awaited<ReturnType<typeof newCompany>>;
    const zoe = { username: 'zoe.fr', password: 'zoe password 1' };

    before(async () => {
      server = await clientAreaServer();
      ana = await seedClient(server, 'ana');
      await ok(server, 'PUT', 'settings/set', { key: 'language', value: 'es_es' });
      other = await newCompany(server, 'Deuxième SARL');
      await ok(server, 'PUT', 'settings/set', { key: 'language', value: 'fr_fr' }, other.auth);
      const client = await ok(
        server,
        'POST',
        'clients/create',
        {
          vars: {
            username: zoe.username,
            new_password: zoe.password,
            confirm_password: zoe.password,
            first_name: 'Zoé',
            last_name: 'Deux',
            email: 'zoe@example.com',
            send_registration_email: 'false',
          },
        },
        other.auth,
      );
      await ok(
        server,
        'POST',
        'invoices/add',
        {
          vars: {
            client_id: client.id,
            date_billed: '2026-01-01 00:00:00 UTC',
            date_due: '2099-03-31 00:00:00 UTC',
            currency: 'USD',
            status: 'active',
            lines: [{ description: 'Hébergement', amount: '60.00' }],
          },
        },
        other.auth,
      );
    });
    after(() => server?.close());

    it("writes every page in the company's language: <html lang>, navigation, dates and money", async () => {
      const browser = await signedIn(server, ana.username, ana.password);
      const list = await browser.get('/client/invoices');
      expect(list.text).to.contain('<html lang="es-ES">').and.contain('<caption>Facturas pendientes</caption>').and.contain('>Medios de pago</a>');
      const invoice = await browser.get(`/client/invoices/view?id=${ana.openInvoiceId}`);
      expect(invoice.text).to.contain('<dd>31 mar 2099</dd>').and.contain('60,00\u00a0US$').and.contain('Pagar 60,00\u00a0US$');
      expect(invoice.text).not.to.contain('Invoices').and.not.to.contain('2099-03-31');
      const missing = await browser.get('/client/invoices/view?id=999999');
      expect(missing.status).to.equal(404);
      expect(missing.text).to.contain('<html lang="es-ES">').and.contain('<h1>No encontrado</h1>');
    });

    it("writes another company's client's pages in that company's language, whatever the request asks for", async () => {
      const browser = await signedIn(server, zoe.username, zoe.password);
      const asked = { 'accept-language': 'es-ES,es;q=0.9' };
      const page = await browser.get('/client/invoices?lang=es_es&language=es_es', asked);
      expect(page.text).to.contain('<html lang="fr-FR">').and.contain('<caption>Factures à payer</caption>').and.contain('60,00\u00a0$US');
      // Its details form takes the detail fields only: a language posted with them changes nothing.
      expect((await browser.post('/client/details', { first_name: 'Zoé', last_name: 'Deux', email: 'zoe@example.com', language: 'es_es' })).status).to.equal(303);
      expect((await browser.get('/client/details', asked)).text).to.contain('<html lang="fr-FR">');
      const anas = await signedIn(server, ana.username, ana.password);
      expect((await anas.get('/client/details', { 'accept-language': 'fr-FR' })).text)
        .to.contain('<html lang="es-ES">')
        .and.contain('<h1>Sus datos</h1>');
    });

    it('shows what a client typed as text inside a translated message', async () => {
      const browser = await signedIn(server, ana.username, ana.password);
      await browser.get('/client/contacts');
      const added = await browser.post('/client/contacts/add', { contact_type: 'billing', first_name: '<img src=x onerror=alert(1)>', last_name: 'Ñandú', email: 'nandu@example.com' });
      expect(added.status).to.equal(303);
      const contacts = (await ok(server, 'GET', 'contacts/getAll', { client_id: ana.clientId })) as Array<{ id: number; last_name: string }>;
      const contact = contacts.find((c) => c.last_name === 'Ñandú')!;
      const page = await browser.get(`/client/contacts/edit?id=${contact.id}`);
      expect(page.text).to.contain('<h1>Contacto &lt;img src=x onerror=alert(1)&gt; Ñandú</h1>').and.not.contain('<img src=x');
    });
  });
});
