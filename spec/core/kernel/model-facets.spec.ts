import { expect } from 'chai';
import { CallContext } from '../../../core/kernel/call-context';
import { callable } from '../../../core/kernel/callable';
import { facet, model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { int, string } from '../../../core/kernel/parameter';
import { int as count, string as text } from '../../../core/kernel/shape';
import { startTestServer, TestServer } from '../../support/test-server';

/** One concern of spec_recipes: its notes. Built per call with the call's context, as a model is. */
@facet('spec_recipes')
class RecipeNotes {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'POST', params: [int('recipe_id'), string('text')], returns: text() })
  async addNote(recipeId: number, note: string) {
    return `${this.prefix()} ${recipeId}: ${note}`;
  }

  private prefix() {
    return `note of company ${this.ctx.companyId} on`;
  }
}

@facet('spec_recipes')
class RecipeRatings {
  @callable({ verb: 'GET', params: [int('recipe_id')], returns: count() })
  async getRating(recipeId: number) {
    return recipeId * 2;
  }
}

/** The model itself, with its facets listed: one API surface, three classes. */
@model('spec_recipes', { facets: [RecipeNotes, RecipeRatings] })
class Recipes {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET', params: [int('recipe_id')] })
  async get(recipeId: number) {
    return { id: recipeId, company_id: this.ctx.companyId };
  }
}

describe('a model split into facets', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    server.installation.addModel(classEntry(Recipes));
  });
  after(() => server.close());

  it("answers every facet's methods as methods of the one model, each run on the class that declares it", async () => {
    const own = await server.request('GET', '/api/spec_recipes/get.json?recipe_id=7');
    expect(own.json).to.deep.equal({ response: { id: 7, company_id: 1 } });
    const noted = await server.request('POST', '/api/spec_recipes/addNote.json', { body: 'recipe_id=7&text=salt' });
    expect(noted.status).to.equal(200);
    expect(noted.json).to.deep.equal({ response: 'note of company 1 on 7: salt' });
    const rated = await server.request('GET', '/api/Spec_Recipes/GETRATING.json?recipe_id=21');
    expect(rated.json).to.deep.equal({ response: 42 });
  });

  it("answers a facet's helper 403 like any member that is not callable, and an unknown name 404", async () => {
    expect((await server.request('GET', '/api/spec_recipes/prefix.json')).status).to.equal(403);
    expect((await server.request('GET', '/api/spec_recipes/constructor.json')).status).to.equal(403);
    expect((await server.request('GET', '/api/spec_recipes/nothingHere.json')).status).to.equal(404);
  });

  it("binds a facet method's parameters as declared: a missing one is the 400 it is for any method", async () => {
    const res = await server.request('POST', '/api/spec_recipes/addNote.json', { body: 'recipe_id=7' });
    expect(res.status).to.equal(400);
  });

  it("documents the facets' methods under the model in the OpenAPI document", async () => {
    const paths = Object.keys((await server.request('GET', '/api/openapi.json')).json.paths).filter((p) => p.startsWith('/api/spec_recipes/'));
    expect(paths).to.have.members(['/api/spec_recipes/get.{format}', '/api/spec_recipes/addNote.{format}', '/api/spec_recipes/getRating.{format}']);
  });
});

describe('facets that cannot be merged', () => {
  it('refuses, naming both classes, a method name declared by two facets of one model', () => {
    @facet('spec_clash')
    class FirstHalf {
      @callable()
      async get() {
        return 1;
      }
    }
    @facet('spec_clash')
    class SecondHalf {
      async get() {
        return 2;
      }
    }
    @model('spec_clash', { facets: [FirstHalf, SecondHalf] })
    class Clash {}
    expect(() => classEntry(Clash)).to.throw('The model "spec_clash" declares the method get twice, in FirstHalf and in SecondHalf: a method belongs to one facet');
  });

  it('refuses a method of the model itself that a facet declares too', () => {
    @facet('spec_clash_own')
    class Half {
      helper() {}
    }
    @model('spec_clash_own', { facets: [Half] })
    class ClashOwn {
      helper() {}
    }
    expect(() => classEntry(ClashOwn)).to.throw(/declares the method helper twice, in Half and in ClashOwn/);
  });

  it('refuses a facet that is not declared for the model listing it', async () => {
    @facet('spec_elsewhere')
    class Elsewhere {}
    class Undeclared {}
    @model('spec_listing', { facets: [Elsewhere] })
    class Listing {}
    @model('spec_listing_plain', { facets: [Undeclared] })
    class ListingPlain {}
    expect(() => classEntry(Listing)).to.throw(`Elsewhere is listed as a facet of the model "spec_listing" but is not decorated with @facet('spec_listing')`);
    expect(() => classEntry(ListingPlain)).to.throw(/Undeclared is listed as a facet of the model "spec_listing_plain"/);
  });
});
