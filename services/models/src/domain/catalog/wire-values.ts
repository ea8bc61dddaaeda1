import {
  MODEL_PROVIDERS,
  MODEL_TYPES,
  type ModelProviderName,
  type ModelTypeName,
} from '@platform/contracts';
import { BusinessError } from '@platform/errors';
import type { ModelProvider, ModelType } from '@platform/contracts/platform/models/v1/models';

/**
 * A stored provider id / model type as its proto value. Stored rows were checked against the same
 * closed sets when written, so a name outside them is a broken row: UNSPECIFIED (0), never a throw
 * that would hide the rest of a list.
 */
export const providerValue = (name: string): ModelProvider =>
  MODEL_PROVIDERS.has(name) ? MODEL_PROVIDERS.toProto(name) : 0;
export const modelTypeValue = (name: string): ModelType =>
  MODEL_TYPES.has(name) ? MODEL_TYPES.toProto(name) : 0;

/**
 * A filter or argument from a gRPC caller as its name. The gateway sends only the set's values;
 * this refusal (1001 at 400) guards the other callers, whose build may know a value this one does not.
 */
export function providerName(value: ModelProvider): ModelProviderName {
  const name = MODEL_PROVIDERS.fromProto(value);
  if (name === undefined)
    throw BusinessError.validation({ provider: ['unknown provider'] }, { httpStatus: 400 });
  return name;
}

export function modelTypeName(value: ModelType): ModelTypeName {
  const name = MODEL_TYPES.fromProto(value);
  if (name === undefined)
    throw BusinessError.validation({ model_type: ['unknown model type'] }, { httpStatus: 400 });
  return name;
}
