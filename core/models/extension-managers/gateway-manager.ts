import { model } from '../../kernel/model';
import { TallyError } from '../../kernel/tally-error';
import { ExtensionType } from '../../kernel/extension-catalog';
import { declareManagerCallables } from './manager-callables';
import { ReferenceManager } from './reference-manager';

type Kind = 'merchant' | 'nonmerchant';

/**
 * Installs, configures and removes gateways for the caller's company, and answers the reference's
 * gateway questions: which installed gateway takes a currency, and whether two merchant gateways
 * would claim the same one.
 */
@model('gateway_manager')
export class GatewayManager extends ReferenceManager {
  protected readonly type: ExtensionType = 'gateway';

  /**
   * The reference's getAll($company_id, $type, $order, $currency, ...): Tally's list, only the
   * gateways of `type` (merchant, nonmerchant) and taking `currency` when given.
   */
  override async getAll(companyId: number | null = null, type: unknown = null, _order: unknown = null, currency: unknown = null) {
    const kind = readKind(type);
    const code = readCurrency(currency);
    return (await super.getAll(companyId)).filter((g) => (kind === null || this.kindOf(g.dir) === kind) && (code === null || (this.catalog.find('gateway', g.dir)?.currencies ?? []).includes(code)));
  }

  /** The reference's getAvailable($type, $company_id): type first, then the company (the base class takes the company alone). */
  override async getAvailable(type: unknown = null, companyId: unknown = null) {
    const kind = readKind(type);
    const company = companyId === null || companyId === undefined ? null : Number(companyId);
    return (await super.getAvailable(company)).filter((g) => kind === null || this.kindOf(g.dir) === kind);
  }

  async getByClass(name: string, companyId: number | null) {
    return this.getByName(name, companyId);
  }

  async isInstalled(name: string, kind: string, companyId: number | null) {
    return (await this.getByName(name, companyId)).some((g) => this.kindOf(g.dir) === kind);
  }

  async getCurrencies(gatewayId: number) {
    const gateway = await this.get(gatewayId);
    if (!gateway) throw TallyError.invalid({ gateway_id: { exists: 'Invalid gateway ID.' } });
    return [...(this.catalog.find('gateway', gateway.dir)?.currencies ?? [])];
  }

  /** True when no other enabled merchant gateway of the company takes `currency` (the reference allows one per currency). */
  async verifyCurrency(currency: string, companyId: number, gatewayId: number | null) {
    if (!this.ownCompany(companyId)) return true;
    return !(await this.enabled('merchant', currency)).some((g) => g.id !== gatewayId);
  }

  async getInstalledMerchant(companyId: number, currency: string | null, gatewayId: number | null, gatewayName: string | null) {
    if (!this.ownCompany(companyId)) return false;
    return (await this.enabled('merchant', currency, gatewayId, gatewayName))[0] ?? false;
  }

  async getInstalledNonmerchant(companyId: number, gatewayName: string | null, gatewayId: number | null, currency: string | null) {
    if (!this.ownCompany(companyId)) return false;
    return (await this.enabled('nonmerchant', currency, gatewayId, gatewayName))[0] ?? false;
  }

  async getAllInstalledNonmerchant(companyId: number, currency: string | null) {
    return this.ownCompany(companyId) ? this.enabled('nonmerchant', currency) : [];
  }

  /** Enabled gateways of a kind, optionally taking a currency, with one id or directory name. */
  private async enabled(kind: Kind, currency: string | null, gatewayId: number | null = null, name: string | null = null) {
    return (await this.getInstalled()).filter(
      (g) =>
        g.status === 'enabled' &&
        this.kindOf(g.dir) === kind &&
        (currency === null || (this.catalog.find('gateway', g.dir)?.currencies ?? []).includes(currency)) &&
        (gatewayId === null || g.id === gatewayId) &&
        (name === null || g.dir === name),
    );
  }

  private kindOf(dir: string): Kind | null {
    return this.catalog.find('gateway', dir)?.kind ?? null;
  }
}

/** A gateway type parameter: merchant, nonmerchant, or none given; anything else is a 400, never ignored. */
function readKind(type: unknown): Kind | null {
  if (type === null || type === undefined || type === '') return null;
  if (type === 'merchant' || type === 'nonmerchant') return type;
  throw TallyError.invalid({ type: { format: 'The gateway type must be merchant or nonmerchant.' } });
}

function readCurrency(currency: unknown): string | null {
  if (currency === null || currency === undefined || currency === '') return null;
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) throw TallyError.invalid({ currency: { format: 'The currency must be a three-letter code such as USD.' } });
  return currency.toUpperCase();
}

declareManagerCallables(GatewayManager, 'gateway');
