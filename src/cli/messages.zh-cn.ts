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

  // Usage errors (exit 2).
  '{0} needs a whole number from {1} to {2}, got "{3}"': '{0} 需要 {1} 到 {2} 之间的整数，收到的是“{3}”',
  '{0} is not valid JSON: {1}': '{0} 不是有效的 JSON：{1}',
  '{0} must be a JSON object': '{0} 必须是 JSON 对象',
  '--header needs K=V, got {0}': '--header 需要 K=V 形式，收到的是 {0}',
  "--header {0} is not a header name (letters, digits and !#$%&'*+.^_`|~- only)":
    "--header {0} 不是有效的标头名（只能包含字母、数字和 !#$%&'*+.^_`|~-）",
  '--header {0}: a header value cannot hold a line break or NUL': '--header {0}：标头值不能包含换行符或 NUL',
  '--stdio: the quote {0} is not closed in {1}': '--stdio：{1} 中的引号 {0} 没有闭合',
  '--stdio takes a command line without shell operators (|, &&, >, ...)': '--stdio 接受不含 shell 运算符（|、&&、> 等）的命令行',
  "Unknown option '{0}' (see --help)": '未知选项“{0}”（参见 --help）',
  "Option '{0} <value>' argument missing": '选项“{0} <value>”缺少参数值',
  "Option '{0}' does not take an argument": '选项“{0}”不接受参数值',
  "Option '{0}' argument is ambiguous.\nDid you forget to specify the option argument for '{1}'?\nTo specify an option argument starting with a dash use '{2}'.":
    '选项“{0}”的参数值有歧义。\n是否忘了给“{1}”指定参数值？\n要指定以短横线开头的参数值，请使用“{2}”。',
  '--oauth-store must be file or memory, got "{0}"': '--oauth-store 必须是 file 或 memory，收到的是“{0}”',
  '--lang must be one of {0}, got "{1}"': '--lang 必须是 {0} 之一，收到的是“{1}”',
  '--log-level must be one of {0}, got "{1}"': '--log-level 必须是 {0} 之一，收到的是“{1}”',
  '--era must be auto, modern or legacy, got "{0}"': '--era 必须是 auto、modern 或 legacy，收到的是“{0}”',
  'give exactly one of --stdio "<command line>" or --http <url>': '请只给出 --stdio "<command line>" 或 --http <url> 中的一个',
  '--calls applies to run only': '--calls 只适用于 run',
  '--stdio needs a command': '--stdio 需要一个命令',
  '--http needs a URL, got "{0}"': '--http 需要一个 URL，收到的是“{0}”',
  '--http needs an http(s) URL, got "{0}"': '--http 需要 http(s) URL，收到的是“{0}”',
  '--header applies to --http only': '--header 只适用于 --http',
  'the sign-in flags (--grant, --client-id, ...) apply to --http only': '登录选项（--grant、--client-id 等）只适用于 --http',
  '--context applies to complete only': '--context 只适用于 complete',
  'unexpected argument "{0}"': '多余的参数“{0}”',
  '{0} takes no argument': '{0} 不接受参数',
  'call needs a tool name': 'call 需要工具名称',
  'prompt needs a prompt name': 'prompt 需要提示名称',
  'prompt arguments are strings; "{0}" is {1}': '提示参数必须是字符串；“{0}”是 {1}',
  'read needs a resource URI': 'read 需要资源 URI',
  'skill needs a skill name or its SKILL.md URI': 'skill 需要技能名称或其 SKILL.md 的 URI',
  'run needs the name of a saved call': 'run 需要已保存调用的名称',
  'missing command: tools, prompts, resources, templates, call, prompt, read, complete, skills, skill, tasks, ping or run':
    '缺少命令：tools、prompts、resources、templates、call、prompt、read、complete、skills、skill、tasks、ping 或 run',
  'unknown command "{0}"': '未知命令“{0}”',
  '--file applies to skill only': '--file 只适用于 skill',
  '--args applies to call, prompt, read and run only': '--args 只适用于 call、prompt、read 和 run',
  '--no-wait applies to call and run only': '--no-wait 只适用于 call 和 run',
  'tasks needs a subcommand: list, or get, cancel or result <taskId>': 'tasks 需要子命令：list，或 get、cancel、result <taskId>',
  'unknown tasks subcommand "{0}" (known: list, get, cancel, result)': '未知的 tasks 子命令“{0}”（可用：list、get、cancel、result）',
  'tasks {0} needs a task id': 'tasks {0} 需要任务 ID',
  'auth needs a subcommand: logout <server-url>': 'auth 需要子命令：logout <server-url>',
  'unknown auth subcommand "{0}" (known: logout)': '未知的 auth 子命令“{0}”（可用：logout）',
  'auth logout needs the server URL: mcp-roundtrip auth logout <server-url>':
    'auth logout 需要服务器 URL：mcp-roundtrip auth logout <server-url>',
  'auth logout needs a server URL, got "{0}"': 'auth logout 需要服务器 URL，收到的是“{0}”',
  'auth logout needs an http(s) URL, got "{0}"': 'auth logout 需要 http(s) URL，收到的是“{0}”',
  'complete needs what to complete: complete prompt <name> <argument> [<prefix>] or complete template <uriTemplate> <variable> [<prefix>]':
    'complete 需要补全的对象：complete prompt <name> <argument> [<prefix>] 或 complete template <uriTemplate> <variable> [<prefix>]',
  'complete prompt needs a prompt name': 'complete prompt 需要提示名称',
  'complete template needs a URI template': 'complete template 需要 URI 模板',
  'complete prompt {0} needs an argument name': 'complete prompt {0} 需要参数名称',
  'complete template {0} needs a variable name': 'complete template {0} 需要变量名称',
  '--context values are strings; "{0}" is {1}': '--context 的值必须是字符串；“{0}”是 {1}',
  "--{0} is not taken: a secret on the command line is kept in the shell's history; use --{0}-env <VAR>":
    '不接受 --{0}：命令行上的密钥会留在 shell 的历史记录中；请使用 --{0}-env <VAR>',
  '--{0} needs a value': '--{0} 需要一个值',
  '--{0}: the environment variable {1} is not set': '--{0}：环境变量 {1} 未设置',
  '--grant must be one of {0}, got "{1}"': '--grant 必须是 {0} 之一，收到的是“{1}”',
  '--client-secret-env needs --client-id': '--client-secret-env 需要 --client-id',
  // The host's texts the CLI shows (messages.ts HOST_TEXTS): field errors, errors that end a run.
  Required: '必填',
  'Required: choose Yes or No': '必填：请选择是或否',
  'Choose Yes or No': '请选择是或否',
  'Choose one of the options': '请从选项中选择一项',
  'Choose only from the listed options': '只能从列出的选项中选择',
  'Choose from the listed options': '请从列出的选项中选择',
  'Must be Yes or No (true or false)': '必须是是或否（true 或 false）',
  'Must be text': '必须是文本',
  'Has the wrong format': '格式不正确',
  'Has the wrong length': '长度不正确',
  'Must be a JSON object': '必须是 JSON 对象',
  'Not valid JSON: {0}': '不是有效的 JSON：{0}',
  'Must be a whole number between {0} and {1}': '必须是 {0} 到 {1} 之间的整数',
  'Must be a whole number of {0} or more': '必须是不小于 {0} 的整数',
  'Must be a whole number of {0} or less': '必须是不大于 {0} 的整数',
  'Must be a whole number': '必须是整数',
  'Must be a number between {0} and {1}': '必须是 {0} 到 {1} 之间的数字',
  'Must be a number of {0} or more': '必须是不小于 {0} 的数字',
  'Must be a number of {0} or less': '必须是不大于 {0} 的数字',
  'Must be a number': '必须是数字',
  'Must be exactly {0} character': '必须正好是 {0} 个字符',
  'Must be exactly {0} characters': '必须正好是 {0} 个字符',
  'Must be between {0} and {1} characters': '必须是 {0} 到 {1} 个字符',
  'Must be at least {0} character': '至少需要 {0} 个字符',
  'Must be at least {0} characters': '至少需要 {0} 个字符',
  'Must be at most {0} character': '最多 {0} 个字符',
  'Must be at most {0} characters': '最多 {0} 个字符',
  'Choose exactly {0}': '请正好选择 {0} 项',
  'Choose between {0} and {1}': '请选择 {0} 到 {1} 项',
  'Choose at least {0}': '请至少选择 {0} 项',
  'Choose at most {0}': '请最多选择 {0} 项',
  'Must be an email address like name@example.com': '必须是电子邮件地址，例如 name@example.com',
  'Must be a full URI like https://example.com/page': '必须是完整的 URI，例如 https://example.com/page',
  'Must be a date like 2026-11-01': '必须是日期，例如 2026-11-01',
  'Must be a date and time like 2026-11-01T09:30:00Z': '必须是日期和时间，例如 2026-11-01T09:30:00Z',
  'could not connect to {0}: {1}': '无法连接到 {0}：{1}',
  'the output could not be written: {0}': '无法写出输出：{0}',
  '{0} on {1} exceeded its time limit of {2} ms': '{1} 上的 {0} 超出了 {2} 毫秒的时间限制',
  "task {0} of {1} on {2} did not finish within the call's time limit ({3} ms of active time); tasks/cancel was sent to {4}":
    '{2} 上 {1} 的任务 {0} 未在调用的时间限制（{3} 毫秒活动时间）内完成；已向 {4} 发送 tasks/cancel',
  "{0} on {1} did not finish within the call's time limit ({2} ms of active time); tasks/cancel was sent to {3}":
    '{1} 上的 {0} 未在调用的时间限制（{2} 毫秒活动时间）内完成；已向 {3} 发送 tasks/cancel',
  '… and {0} more': '…… 另有 {0} 个',
  none: '无',
  '{0} did not complete the handshake ({1}) within {2} ms': '{0} 未在 {2} 毫秒内完成握手（{1}）',
  '{0} on {1} timed out': '{1} 上的 {0} 超时',
  'signing in to {0} was declined': '已拒绝登录 {0}',
  'the sign-in to {0} was cancelled': '登录 {0} 已取消',
  '{0} on {1} was cancelled': '{1} 上的 {0} 已取消',
  'task {0} of {1} was cancelled; tasks/cancel was sent to {2}': '{1} 的任务 {0} 已取消；已向 {2} 发送 tasks/cancel',
  '{0} was cancelled; tasks/cancel was sent to {1}': '{0} 已取消；已向 {1} 发送 tasks/cancel',
  '{0} was cancelled': '{0} 已取消',
  '{0} does not offer completions (no "completions" capability); give the value of {1} yourself (see prompts or templates)':
    '{0} 不提供补全（没有 "completions" 能力）；请自己给出 {1} 的值（见 prompts 或 templates）',
  '{0} needs a sign-in (it answered {1}), and none can be done here: {2}': '{0} 需要登录（它的回答是 {1}），但此处无法登录：{2}',
  '{0} needs a sign-in, and none can be done here: {1}': '{0} 需要登录，但此处无法登录：{1}',
  '{0} still asked for input after {1} round(s) of {2}; the host stopped (limit: {3})':
    '{2} 进行了 {1} 轮后 {0} 仍在请求输入；主机已停止（上限：{3}）',
  'no answer for input "{0}" ({1}) asked by {2} in round {3} of {4} {5}; add it to --answers':
    '没有对输入“{0}”（{1}）的回答，它由 {2} 在 {4} {5} 的第 {3} 轮中请求；请把它加入 --answers',
  'cannot read --answers {0}: {1}': '无法读取 --answers {0}：{1}',
  '--answers {0} is not valid JSON: {1}': '--answers {0} 不是有效的 JSON：{1}',
  '--answers {0} must hold a JSON object keyed by inputRequests key': '--answers {0} 必须是以 inputRequests 键为键的 JSON 对象',
  'cancelled at the terminal (the input ended)': '已在终端取消（输入已结束）',
  'cancelled at the terminal ({0})': '已在终端取消（{0}）',
  'cancelled at the terminal': '已在终端取消',
  'cancelled: the standard output was closed': '已取消：标准输出已关闭',
  'no saved calls: {0} does not exist (save a call in VS Code with Save Call…, or give --calls <file>)':
    '没有已保存的调用：{0} 不存在（请在 VS Code 中用 Save Call… 保存调用，或给出 --calls <file>）',
  'no saved call named "{0}" in {1}; it has: {2}': '{1} 中没有名为“{0}”的已保存调用；其中有：{2}',
  'no saved call named "{0}" in {1}': '{1} 中没有名为“{0}”的已保存调用',
  'saved call "{0}" reads a resource: it takes no --args': '已保存的调用“{0}”读取资源：它不接受 --args',
  'saved call "{0}" runs on server "{1}", but {2}; give the server with --stdio or --http':
    '已保存的调用“{0}”在服务器“{1}”上运行，但 {2}；请用 --stdio 或 --http 指定服务器',
  'cannot read the saved calls {0}: {1}': '无法读取已保存的调用 {0}：{1}',
  'complete template {0}: the template has no variable "{1}" (its variables: {2})':
    'complete template {0}：模板没有变量“{1}”（它的变量：{2}）',
  'complete prompt {0}: {1} lists no such prompt (its prompts: {2})': 'complete prompt {0}：{1} 没有列出此提示（它的提示：{2}）',
  'complete prompt {0}: the prompt has no argument "{1}" (its arguments: {2})': 'complete prompt {0}：该提示没有参数“{1}”（它的参数：{2}）',
  '{0} does not serve skills (it does not declare the Skills extension)': '{0} 不提供技能（它没有声明 Skills 扩展）',
  '{0} serves no skill named {1} (it serves: {2})': '{0} 没有名为 {1} 的技能（它提供：{2}）',
  '{0} serves no skill named {1}': '{0} 没有名为 {1} 的技能',
  // Lines of a run (stderr), terminal questions, and the field kinds a prompt names.
  'the CLI offers roots only when given: add --roots <dir> (repeatable)': 'CLI 只在给出时才提供 roots：请添加 --roots <dir>（可重复）',
  '{0} suggests nothing for {1} of {2} starting "{3}"': '{0} 对 {2} 的 {1} 没有以“{3}”开头的建议',
  '{0} suggests nothing for {1} of {2}': '{0} 对 {2} 的 {1} 没有建议',
  'no task started by this CLI is kept for {0}': '没有为 {0} 保存此 CLI 启动的任务',
  'no task started by this CLI is kept': '没有保存此 CLI 启动的任务',
  'task {0}: tasks/cancel sent to {1}': '任务 {0}：已向 {1} 发送 tasks/cancel',
  '{0} prompt {1} takes an argument': '{0} 的提示 {1} 需要一个参数',
  '{0} prompt {1} takes arguments': '{0} 的提示 {1} 需要参数',
  '{0} template {1} has a variable': '{0} 的模板 {1} 有一个变量',
  '{0} template {1} has variables': '{0} 的模板 {1} 有变量',
  'Tab suggests': '按 Tab 获取建议',
  'Enter leaves an optional one out': 'Enter 跳过可选项',
  ':cancel cancels': '输入 :cancel 取消',
  'Required: type a value': '必填：请输入一个值',
  '{0} lists no tools': '{0} 没有列出工具',
  '{0} lists no prompts': '{0} 没有列出提示',
  '{0} lists no resources': '{0} 没有列出资源',
  '{0} lists no resource templates': '{0} 没有列出资源模板',
  reply: '回复',
  'argument {0}': '参数 {0}',
  '(arguments)': '（参数）',
  text: '文本',
  email: '电子邮件',
  uri: 'URI 地址',
  date: '日期',
  'date-time': '日期时间',
  number: '数字',
  integer: '整数',
  select: '单选',
  multiselect: '多选',
  'ended: its stdio server exited (last read: {0})': '已结束：其 stdio 服务器已退出（最后读到：{0}）',
  '{0} (not followed: {1} — the server may still run it: tasks get {2} re-checks it, tasks result {2} resumes it, against the same server)':
    '{0}（未再跟进：{1} — 服务器可能仍在运行它：对同一服务器用 tasks get {2} 重新查看，tasks result {2} 继续等待）',
  '{0} (not followed — the server may still run it: tasks get {1} re-checks it, tasks result {1} resumes it, against the same server)':
    '{0}（未再跟进 — 服务器可能仍在运行它：对同一服务器用 tasks get {1} 重新查看，tasks result {1} 继续等待）',
  'the CLI was interrupted; tasks/cancel was sent': 'CLI 被中断；已发送 tasks/cancel',
  "the call's time limit was reached; tasks/cancel was sent": '调用已达到时间限制；已发送 tasks/cancel',
  'the call ended: {0}': '调用已结束：{0}',
  'task {0}: {1}, not followed any more ({2}); the server may still run it: tasks get or tasks result {0} against the same server':
    '任务 {0}：{1}，不再跟进（{2}）；服务器可能仍在运行它：对同一服务器用 tasks get 或 tasks result {0}',
  'task {0}: ended with its stdio server, which the CLI stops as it exits': '任务 {0}：已随其 stdio 服务器结束（CLI 退出时会停止该服务器）',
};

/**
 * The usage text (`--help`, and after a usage error) in Simplified Chinese: the same commands and flags
 * as `USAGE` in args.ts, line by line (a unit test compares them), the explanations translated.
 */
export const USAGE_ZH_CN = `用法：mcp-roundtrip (--stdio "<command line>" | --http <url>) [--era auto|modern|legacy] [--header K=V]...
    tools | prompts | resources | templates   列出它们
    call <tool> [--args <json>]         tools/call（服务器以任务运行的调用会跟进到其结果）
    tasks get|cancel|result <taskId>    任务的状态、取消它，或等待其结果
    tasks list                          此 CLI 启动的任务（不带 --stdio/--http 时：所有服务器的）
    ping                                ping（2025 时期的服务器）；2026-07-28 的服务器没有 ping，会说明这一点
    prompt <name> [--args <json>]       prompts/get
    read <uri>                          resources/read
    read <uriTemplate> --args <json>    展开模板（RFC 6570）后的 resources/read
    complete prompt <name> <argument> [<prefix>] [--context <json>]      completion/complete：每行一个建议
    complete template <uriTemplate> <variable> [<prefix>] [--context <json>]
    skills                              服务器的技能：名称、uri、文件、字节数
    skill <name|uri> [--file <ref>]     技能的 SKILL.md，或用 --file 指定其列出的某个文件，均经过校验
  [--name <label>]         服务器在日志中的名称（默认：其包名，或其命令名）
mcp-roundtrip run <name> [--calls <file>] [--args <json>] [--stdio "<command line>" | --http <url>]
                                        .vscode/mcp-calls.json 中保存的调用（其服务器来自 .vscode/mcp.json）
  [--answers <file.json>]  预先写好的回答：{"<inputRequests key>": <ElicitResult | CreateMessageResult | ListRootsResult>}
  [--roots <dir>]...       回答 roots/list 的目录（默认：无，也不声明 roots 能力）
  [--max-rounds N] [--timeout-ms N] [--json] [--verbose] [--help]
  [--leg-idle-ms N]        一段请求超过 N 毫秒没有回答或进度即失败（默认 60000）
  [--quiet]                stderr 上不显示进度行
  [--no-wait]              call：服务器以任务运行该调用时，打印其 ID 并以 0 退出
  [--log-level <level>]    请求服务器日志消息的级别（默认 info；用 --verbose 显示）
  [--no-browser]           登录：只打印 URL，不打开浏览器
  [--oauth-store file|memory]  登录信息保存的位置（默认 file：0600，位于用户的配置目录）
  [--lang en|zh-cn]        CLI 自身提示和说明的语言（默认：LC_ALL、LC_MESSAGES 或 LANG；zh_CN.UTF-8 即 zh-cn）
  [--grant authorization_code|client_credentials|jwt_bearer|enterprise]   --http 服务器的登录方式（默认：在浏览器中）
  [--client-id <id>] [--client-secret-env <VAR>]   已注册的客户端；其密钥来自环境变量
  [--private-key-file <pem>] [--signing-algorithm <alg>]   使用 private_key_jwt 的 client_credentials
  [--assertion-file <file> | --assertion-env <VAR>]   jwt_bearer：工作负载的令牌
  [--id-token-file <file>] [--idp-issuer <url>] [--idp-client-id <id>] [--idp-client-secret-env <VAR>]   enterprise
mcp-roundtrip auth logout <server-url>   忘记为该服务器保存的登录`;
