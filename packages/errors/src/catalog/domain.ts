import { defineRange } from './define.js';

/** 6000-6099 Knowledge base. */
export const KNOWLEDGE_BASE_ENTRIES = defineRange(400, [
  { constant: 'KB_NOT_FOUND', httpStatus: 404, en: 'Knowledge base not found', zh: '知识库不存在' },
  { constant: 'KB_NAME_EXISTS', en: 'Knowledge base name already exists', zh: '知识库名称已存在' },
  { constant: 'DOCUMENT_NOT_FOUND', httpStatus: 404, en: 'Document not found', zh: '文档不存在' },
  { constant: 'INVALID_DOCUMENT_TYPE', en: 'Unsupported document type', zh: '不支持的文档类型' },
  // Reserved; the spec gives it no HTTP status. 500: a processing failure is server-side.
  {
    constant: 'DOCUMENT_PROCESSING_FAILED',
    httpStatus: 500,
    reserved: true,
    en: 'Document processing failed',
    zh: '文档处理失败',
  },
  { constant: 'CHUNK_NOT_FOUND', httpStatus: 404, en: 'Document chunk not found', zh: '文档分块不存在' },
  { constant: 'DOCUMENT_PROCESSING', en: 'The document is still being processed', zh: '文档仍在处理中' },
  {
    constant: 'KB_ACCESS_DENIED',
    httpStatus: 403,
    en: 'You do not have access to this knowledge base',
    zh: '您无权访问该知识库',
  },
]);

/** 6100-6199 Models. */
export const MODEL_ENTRIES = defineRange(400, [
  { constant: 'MODEL_NOT_FOUND', httpStatus: 404, en: 'Model not found', zh: '模型不存在' },
  {
    constant: 'TEAM_MODEL_NOT_FOUND',
    httpStatus: 404,
    en: 'Model authorization for this team not found',
    zh: '该团队的模型授权不存在',
  },
  {
    constant: 'TEAM_MODEL_EXISTS',
    en: 'The model is already authorized for this team',
    zh: '该模型已授权给此团队',
  },
  { constant: 'MODEL_QUOTA_EXCEEDED', httpStatus: 429, en: 'Model quota exceeded', zh: '模型用量已超出配额' },
  {
    constant: 'MODEL_NOT_AUTHORIZED',
    en: 'Your team is not authorized to use this model; ask an administrator to add an authorization',
    zh: '您的团队未获授权使用该模型，请联系管理员添加授权',
  },
  // Reserved; the spec gives it no HTTP status. 400: the business-error default.
  {
    constant: 'MODEL_VISION_NOT_SUPPORTED',
    reserved: true,
    en: 'This model does not support image input',
    zh: '该模型不支持图像输入',
  },
  {
    constant: 'MODEL_DISABLED',
    en: 'The model or its team authorization is disabled',
    zh: '该模型或其团队授权已停用',
  },
]);

/** 6200-6299 Agents and conversations. */
export const AGENT_ENTRIES = defineRange(404, [
  { constant: 'AGENT_NOT_FOUND', en: 'Agent not found', zh: '智能体不存在' },
  {
    constant: 'AGENT_ACCESS_DENIED',
    httpStatus: 403,
    en: 'You do not have access to this agent',
    zh: '您无权访问该智能体',
  },
  // Reserved; the spec gives it no HTTP status. 400: the business-error default.
  {
    constant: 'AGENT_NOT_PUBLISHED',
    httpStatus: 400,
    reserved: true,
    en: 'The agent is not published',
    zh: '智能体尚未发布',
  },
  { constant: 'CONVERSATION_NOT_FOUND', en: 'Conversation not found', zh: '会话不存在' },
  { constant: 'MESSAGE_NOT_FOUND', en: 'Message not found', zh: '消息不存在' },
]);

/** 6300-6399 SSO. */
export const SSO_ENTRIES = defineRange(400, [
  {
    constant: 'SSO_PROVIDER_NOT_FOUND',
    en: 'SSO provider not found or disabled',
    zh: 'SSO 提供方不存在或已停用',
  },
  {
    constant: 'SSO_SESSION_EXPIRED',
    reserved: true,
    en: 'The SSO session has expired',
    zh: 'SSO 会话已过期',
  },
  {
    constant: 'SSO_REGISTRATION_DISABLED',
    en: 'Registration through SSO is disabled',
    zh: '未开放通过 SSO 注册',
  },
  {
    constant: 'SSO_AUTHENTICATION_FAILED',
    reserved: true,
    en: 'SSO authentication failed',
    zh: 'SSO 认证失败',
  },
  { constant: 'SSO_INVALID_CONFIGURATION', en: 'Invalid SSO configuration', zh: 'SSO 配置无效' },
  {
    constant: 'SSO_PROVIDER_NAME_EXISTS',
    en: 'SSO provider name already exists',
    zh: 'SSO 提供方名称已存在',
  },
  {
    constant: 'PASSWORD_LOGIN_DISABLED',
    en: 'Password login is disabled; please sign in with SSO',
    zh: '密码登录已禁用，请使用 SSO 登录',
  },
]);
