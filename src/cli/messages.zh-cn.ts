/**
 * The CLI's words in Simplified Chinese, keyed by the English text given to `cliText` (placeholders
 * `{0}`, `{1}` … as in the English; typed answers such as y, n, :decline stay as they are).
 */
export const ZH_CN: Readonly<Record<string, string>> = {
  'Press Enter once you are done at {0} (or :cancel):': '在 {0} 完成后按 Enter（或输入 :cancel）：',
  '{0} asks ({1} {2}, round {3}, "{4}"):': '{0} 询问（{1} {2}，第 {3} 轮，“{4}”）：',
  'host: {0}': '主机：{0}',
  'warning: {0}': '警告：{0}',
  'This URL cannot be opened (only http and https are).': '无法打开此 URL（只打开 http 和 https）。',
  'Go to this URL? Open it in your browser yourself. [y]es / [n]o (decline) / [c]ancel:':
    '前往此 URL？请自行在浏览器中打开。[y] 是 / [n] 否（拒绝）/ [c] 取消：',
  'This form cannot be shown: {0}': '无法显示此表单：{0}',
  '[d]ecline / [c]ancel:': '[d] 拒绝 / [c] 取消：',
  '(type :decline or :cancel at any prompt; Enter keeps the value in [brackets], {0} empties an optional one)':
    '（在任何提示处输入 :decline 或 :cancel；Enter 保留 [方括号] 中的值，{0} 清空可选字段）',
  'Type one of: {0}.': '请输入以下之一：{0}。',
  '{0} asks ({1} {2}, round {3}, "{4}") for a language model\'s reply (sampling):':
    '{0} 请求（{1} {2}，第 {3} 轮，“{4}”）语言模型的回复（采样）：',
  'The CLI has no language model: you can write the reply yourself (type :decline at any prompt).':
    'CLI 没有语言模型：你可以自己写回复（在任何提示处输入 :decline 拒绝）。',
  'write the reply? [y]es / [n]o (decline):': '写回复吗？[y] 是 / [n] 否（拒绝）：',
  'Reply, line {0} (a line with only "." ends it):': '回复，第 {0} 行（只有“.”的一行表示结束）：',
  'yes or no; required': '是或否；必填',
  'yes or no; Enter leaves it unset': '是或否；Enter 保持未设置',
  '… {0} more ({1} choices: type a number up to {1}, or the value)': '… 还有 {0} 项（共 {1} 个选项：输入不超过 {1} 的编号，或输入值）',
  required: '必填',
  '{0} leaves it unset': '{0} 保持未设置',
  'Type y (yes) or n (no)': '请输入 y（是）或 n（否）',
  'Type y (yes) or n (no), or nothing to leave it unset': '请输入 y（是）或 n（否），或不输入以保持未设置',
  'Warning: {0}': '警告：{0}',
  'Open this URL in your browser (opening it now):': '请在浏览器中打开此 URL（正在打开）：',
  'Open this URL in your browser:': '请在浏览器中打开此 URL：',
  'Sign in there? Nothing is sent to it before you say yes [Y/n]': '在那里登录吗？你同意之前不会向它发送任何内容 [Y/n]',
  'Waiting for the browser to come back to {0}. Or paste the URL your browser ended on (Enter):':
    '正在等待浏览器返回 {0}。或粘贴浏览器最后停留的 URL（Enter）：',
  'warning: --roots {0} is not a directory here; it is sent as given': '警告：--roots {0} 在此处不是目录；按原样发送',

  '{0} to {1}': '{0} 到 {1}',
  '{0} or more': '{0} 或更多',
  '{0} or less': '{0} 或更少',
  'format {0}': '格式 {0}',
  'like {0}': '例如 {0}',
  'exactly {0} characters': '正好 {0} 个字符',
  '{0} to {1} characters': '{0} 到 {1} 个字符',
  'at least {0} characters': '至少 {0} 个字符',
  'at most {0} characters': '最多 {0} 个字符',
  'pick {0} to {1}, comma-separated': '选择 {0} 到 {1} 项，用逗号分隔',
  'pick at least {0}, comma-separated': '至少选择 {0} 项，用逗号分隔',
  'pick at most {0}, comma-separated': '最多选择 {0} 项，用逗号分隔',
  'comma-separated': '用逗号分隔',
};
