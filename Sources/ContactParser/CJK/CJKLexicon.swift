/// Words of Japanese, Chinese and Korean cards that say what a line is: companies' legal forms,
/// the heads of job titles, phone labels, postal marks, family names. The lists are of the words
/// themselves (as dictionaries and the countries' company laws give them), never of a card's values.
enum CJKLexicon {
    /// Legal forms of companies and the kinds of organisation, before or after the name.
    static let legalForms: [String] = [
        // Japan: the Companies Act's forms and the corporations of other laws.
        "株式会社", "(株)", "（株）", "㈱", "有限会社", "(有)", "（有）", "㈲", "合同会社", "合資会社", "合名会社",
        "一般社団法人", "公益社団法人", "一般財団法人", "公益財団法人", "医療法人", "学校法人", "社会福祉法人",
        "特定非営利活動法人", "NPO法人", "独立行政法人", "国立大学法人",
        // China, Taiwan, Hong Kong: companies, groups, firms.
        "股份有限公司", "有限责任公司", "有限責任公司", "有限公司", "集团", "集團", "公司", "企业社", "企業社",
        "事务所", "事務所", "工作室", "研究院", "研究所",
        // Korea: the Commercial Act's forms and foundations.
        "주식회사", "(주)", "㈜", "유한회사", "(유)", "유한책임회사", "합자회사", "합명회사", "재단법인", "사단법인",
    ]

    /// Words that end the names of organisations that have no legal form on the card.
    static let organizationHeads: [String] = [
        "銀行", "银行", "大学", "大學", "病院", "医院", "醫院", "協会", "协会", "協會", "センター", "グループ",
        "ホールディングス", "商会", "商事", "工業", "製作所", "은행", "대학교", "병원", "협회", "센터", "그룹", "연구소",
    ]

    /// The last words of job titles (the title is the whole line: "営業部 部長", "销售总监").
    static let titleHeads: [String] = [
        // Japanese
        "長", "取締役", "監査役", "相談役", "執行役員", "役員", "主任", "主査", "主事", "担当", "顧問", "理事", "参与",
        "マネージャー", "マネジャー", "ディレクター", "エンジニア", "デザイナー", "コンサルタント", "リーダー",
        "スペシャリスト", "プロデューサー", "アナリスト", "研究員", "技師", "社員", "代表", "秘書", "弁護士", "税理士",
        "代理", "補佐", "代行",
        // Chinese
        "经理", "經理", "总监", "總監", "总裁", "總裁", "主管", "董事", "工程师", "工程師", "设计师", "設計師", "顾问",
        "顧問", "助理", "专员", "專員", "执行官", "執行長", "协理", "協理", "会计师", "會計師", "律师", "律師", "分析师",
        "分析師", "合伙人", "合夥人", "主席", "秘书", "秘書",
        // Korean
        "대표이사", "대표", "이사", "부장", "차장", "과장", "대리", "사원", "주임", "팀장", "실장", "본부장", "소장",
        "원장", "사장", "회장", "전무", "상무", "연구원", "매니저", "디렉터", "엔지니어", "디자이너", "컨설턴트",
        "책임", "선임", "수석", "변호사", "고문",
    ]

    /// Phone labels and the kind of number they announce, in the three languages and in Latin letters.
    static let phoneLabels: [(String, PhoneType)] = [
        ("携帯電話", .mobile), ("携帯", .mobile), ("ケータイ", .mobile), ("手机", .mobile), ("手機", .mobile),
        ("移动电话", .mobile), ("行動電話", .mobile), ("行動", .mobile), ("휴대폰", .mobile), ("휴대전화", .mobile),
        ("핸드폰", .mobile), ("모바일", .mobile), ("mobile", .mobile), ("mob", .mobile), ("cell", .mobile), ("hp", .mobile),
        ("m", .mobile),
        ("ファックス", .fax), ("ファクス", .fax), ("传真", .fax), ("傳真", .fax), ("팩스", .fax), ("전송", .fax),
        ("fax", .fax), ("f", .fax),
        ("電話", .work), ("电话", .work), ("座机", .work), ("直通", .work), ("代表", .work), ("大代表", .work),
        ("전화", .work), ("대표전화", .work), ("직통", .work), ("tel", .work), ("phone", .work), ("t", .work),
        ("office", .work), ("direct", .work),
    ]

    /// True when `folded` (a line with full-width forms folded) holds a legal form.
    static func holdsLegalForm(_ folded: String) -> Bool {
        let compact = folded.filter { $0 != " " }
        return legalForms.contains { compact.contains(CJKText.folded($0).filter { $0 != " " }) }
    }

    /// Marks and labels before a postcode.
    static let postalMarks: [String] = ["〒", "邮编", "郵編", "邮政编码", "郵遞區號", "郵政編碼", "우편번호", "(우)", "우)", "우"]

    /// Words announcing an address, an e-mail or a web address ("住所:", "地址:", "주소").
    static let fieldLabels: [String] = ["住所", "所在地", "地址", "주소", "メール", "邮箱", "郵箱", "電郵", "电邮", "이메일",
                                        "網址", "网址", "홈페이지", "e-mail", "email", "mail", "web", "url", "http", "www"]

    /// Compound family names of two characters (the rest are one: 王, 김).
    static let compoundFamilyNames: Set<String> = [
        "欧阳", "歐陽", "司马", "司馬", "诸葛", "諸葛", "上官", "东方", "東方", "皇甫", "尉迟", "尉遲", "公孙", "公孫",
        "慕容", "令狐", "夏侯", "长孙", "長孫", "宇文", "司徒", "轩辕", "軒轅", "端木", "南宫", "南宮", "西门", "西門",
        "남궁", "황보", "제갈", "선우", "독고", "사공", "서문", "동방",
    ]

    /// The 60 commonest Korean family names (one syllable).
    static let koreanFamilyNames: Set<Character> = Set("김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용")

    /// Common Chinese family names (one character), simplified and traditional.
    static let chineseFamilyNames: Set<Character> = Set(
        "王李张張刘劉陈陳杨楊黄黃赵趙吴吳周徐孙孫马馬朱胡郭何林罗羅高郑鄭梁谢謝宋唐许許韩韓冯馮邓鄧曹彭曾肖萧蕭田董袁潘于蒋蔣蔡余杜叶葉程苏蘇魏吕呂丁任沈姚卢盧姜崔钟鍾谭譚陆陸汪范金石廖贾賈夏韦韋付方白邹鄒孟熊秦邱江尹薛闫閻段雷侯龙龍史陶黎贺賀顾顧毛郝龚龔邵万萬钱錢严嚴覃武戴莫孔向汤湯常温溫康施文牛樊葛邢安齐齊易乔喬伍庞龐颜顏倪庄莊聂聶章鲁魯岳翟殷詹申欧歐耿关關兰蘭焦俞左柳甘祝包宁寧尚符舒阮柯纪紀梅童凌毕畢单單季裴霍涂成苗谷盛曲翁冉骆駱蓝藍路游辛靳管柴蒙鲍鮑华華喻祁蒲房滕屈饶饒解牟艾尤阳陽时時穆农農司卓古吉缪繆简簡车車项項连連芦蘆麦麥褚娄婁窦竇戚岑景党宫宮费費卜冷晏席卫衛米柏宗瞿桂全佟应應臧闵閔苟邬鄔边邊卞姬师師和仇栾欒隋商刁沙荣榮巫寇桑郎甄丛叢仲虞敖巩鞏明佘池查麻苑迟遲邝鄺洪")

    /// Common Japanese family names (two characters mostly), for splitting a name printed without a space.
    static let japaneseFamilyNames: Set<String> = [
        "佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田", "佐々木", "山口",
        "松本", "井上", "木村", "林", "斎藤", "清水", "山崎", "森", "池田", "橋本", "阿部", "石川", "山下", "中島",
        "石井", "小川", "前田", "岡田", "長谷川", "藤田", "後藤", "近藤", "村上", "遠藤", "青木", "坂本", "斉藤", "福田",
        "太田", "西村", "藤井", "金子", "岡本", "藤原", "中野", "三浦", "原田", "中川", "松田", "竹内", "小野", "田村",
        "中山", "和田", "石田", "森田", "上田", "原", "柴田", "酒井", "工藤", "横山", "宮崎", "宮本", "内田", "高木",
        "安藤", "島田", "谷口", "大野", "高田", "丸山", "今井", "河野", "藤本", "村田", "武田", "上野", "杉山", "増田",
        "小山", "大塚", "平野", "菅原", "久保", "松井", "千葉", "岩崎", "桜井", "木下", "野口", "松尾", "菊地", "野村",
        "新井", "渡部", "佐野", "杉本", "古川", "大西", "浅野", "市川", "中田", "小松", "服部", "樋口", "荒木", "西田",
    ]
}
