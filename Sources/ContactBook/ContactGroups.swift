import ContactParser

/// Contacts merged by the book's rules without a book (`scan --merge`): two contacts are one
/// when they share an e-mail address, an E.164 number, or the same name at the same
/// organisation; each single field takes the value given with the most confidence (the latest
/// on a tie), each list every distinct value, surest first.
public struct ContactGroups: Sendable {
    private var groups: [[Contact]] = []
    private var index: [String: Int] = [:]

    public init() {}

    /// Adds a contact: into the group it matches, else as a group of its own.
    public mutating func add(_ contact: Contact) {
        let keys = Store.matchKeys(contact).map { $0.kind + "\u{1F}" + $0.key }
        var target = keys.compactMap { index[$0] }.first
        if let found = target {
            groups[found].append(contact)
        } else {
            groups.append([contact])
            target = groups.count - 1
        }
        guard let target else { return }
        for key in Store.matchKeys(Self.merge(groups[target])).map({ $0.kind + "\u{1F}" + $0.key }) where index[key] == nil {
            index[key] = target
        }
    }

    /// One contact per group, in the order each group was first seen.
    public var merged: [Contact] { groups.map(Self.merge) }

    /// How many contacts went into the groups.
    public var count: Int { groups.reduce(0) { $0 + $1.count } }

    /// The contacts of a group as one, by the book's rules.
    public static func merge(_ contacts: [Contact]) -> Contact {
        guard contacts.count > 1 else { return contacts.first ?? Contact() }
        // Surest first; on a tie the later contact first, as the book orders its values.
        let ordered = contacts.enumerated().map { $0 }
        var c = Contact()
        for field in Contact.Field.allCases {
            let ranked = ordered.filter { $0.element.confidence[field] != nil || $0.element.has(field) }
                .sorted { a, b in
                    let ca = a.element.confidence[field] ?? 0.5, cb = b.element.confidence[field] ?? 0.5
                    return ca != cb ? ca > cb : a.offset > b.offset
                }.map(\.element)
            guard let best = ranked.first(where: { $0.has(field) }) else { continue }
            take(field, from: best, among: ranked, into: &c)
            c.confidence[field] = best.confidence[field] ?? 0.5
        }
        c.region = contacts.last(where: { $0.region != nil })?.region
        return c
    }

    /// A single field from the surest contact; a list as every distinct value of them all, surest first.
    static func take(_ field: Contact.Field, from best: Contact, among ranked: [Contact], into c: inout Contact) {
        switch field {
        case .name: c.name = best.name
        case .title: c.title = best.title
        case .organization: c.organization = best.organization
        case .address: c.address = best.address
        case .phones:
            var seen = Set<String>()
            c.phones = ranked.flatMap(\.phones).filter { seen.insert($0.e164 ?? $0.number.filter(\.isNumber)).inserted }
        case .emails:
            var seen = Set<String>()
            c.emails = ranked.flatMap(\.emails).filter { seen.insert($0.lowercased()).inserted }
        case .urls:
            var seen = Set<String>()
            c.urls = ranked.flatMap(\.urls).filter { seen.insert($0.lowercased()).inserted }
        }
    }
}
