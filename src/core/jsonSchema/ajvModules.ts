/**
 * The ajv classes the host uses, gathered in one module so that the bundles load them on first use
 * (`validator.ts` requires this file lazily; scripts/build.mjs makes it `dist/ajv.js`): ajv is the
 * largest library of the extension, and activation never needs it.
 */
import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export { Ajv, Ajv2019, Ajv2020, addFormats };
